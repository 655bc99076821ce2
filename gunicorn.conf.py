"""gunicorn's settings, read by `gunicorn wsgi:app` from this directory and by `flask --app wsgi serve`."""

limit_request_line = 0  # no limit of gunicorn's own: webapp/limits.py refuses long lines itself, as JSON or a page
