"""CLI: dashboard users and API keys."""
from __future__ import annotations

import click

from core.access import api_keys, users
from core.errors import DomainError


@click.group("users")
def users_group():
    """Dashboard accounts."""


@users_group.command("create")
@click.option("--email", required=True)
@click.option("--password", required=True, help="at least 8 characters")
@click.option("--company", "companies", type=int, multiple=True, help="a company_id the user may see (repeatable)")
@click.option("--admin", is_flag=True, help="may see every company")
@click.option("--name", default="")
def create_user(email, password, companies, admin, name):
    """Create a local dashboard user."""
    if not companies and not admin:
        raise click.UsageError("give at least one --company, or --admin")
    try:
        user = users.create_user(email, password, list(companies), admin=admin, name=name)
    except (DomainError, ValueError) as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"Created user {user.email} for companies {user.companies or 'all'}{' (admin)' if admin else ''}")


@click.group("keys")
def keys_group():
    """API keys (sent in the X-API-Key header)."""


@keys_group.command("create")
@click.option("--company", "companies", type=int, multiple=True, help="a company_id the key may read (repeatable)")
@click.option("--all", "all_companies", is_flag=True, help="the key may read every company")
@click.option("--name", default="", help="a label for the key")
def create_key(companies, all_companies, name):
    """Create a key; the token is printed once, alone on the last line."""
    if not companies and not all_companies:
        raise click.UsageError("give at least one --company, or --all")
    key, token = api_keys.create_key(list(companies), all_companies=all_companies, name=name)
    scope = "all companies" if all_companies else ", ".join(map(str, key.companies))
    click.echo(f"Created key {key.prefix} ({name or 'unnamed'}) for {scope}. "
               "Store the token now; it is not shown again:")
    click.echo(token)


@keys_group.command("list")
def list_keys():
    """List keys (prefixes only, never tokens)."""
    for key in api_keys.list_keys():
        scope = "all" if key.all_companies else ",".join(map(str, key.companies))
        state = f"revoked {key.revoked_at:%Y-%m-%d}" if key.revoked_at else "active"
        click.echo(f"{key.prefix}  {key.name or '-':<20} companies={scope:<12} {state}  "
                   f"created {key.created_at:%Y-%m-%d}")


@keys_group.command("revoke")
@click.argument("prefix")
def revoke_key(prefix):
    """Revoke a key by the prefix `keys list` shows."""
    try:
        key = api_keys.revoke_key(prefix)
    except DomainError as error:
        raise click.ClickException(error.detail) from None
    click.echo(f"Revoked key {key.prefix}")


COMMANDS = [users_group, keys_group]
