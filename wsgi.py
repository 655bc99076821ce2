"""WSGI entry point: `gunicorn wsgi:app`, and `flask --app wsgi <command>` for the CLI."""
from webapp import create_app

app = create_app()
