"""Settings from the environment (12-factor): one frozen object, read once per process."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import limits

DEFAULT_PRICES = {
    "ai_listener_profile": 1,
    "ai_segment_insights": 5,
    "custom_segment": 2,
    "audience": 2,
    "parse_brief": 1,
    "recommend": 5,
}


@dataclass(frozen=True)
class Settings:
    """What an operator can set; every field has a default that works on a laptop."""

    mongodb_uri: str | None = None
    data_dir: Path = Path("var")
    database_name: str = "listeners"
    secret_key: str = "dev-secret-change-me"
    # The master key that wraps every data key (core.personal.vault): base64 of 96 bytes, the same on every host;
    # unset, a key file made under DATA_DIR (one host only). The key vault: another deployment (KEY_VAULT_URI) and
    # database (KEY_VAULT_DATABASE), so that the data's backups do not hold the keys; unset, on the embedded database a
    # server of its own under DATA_DIR/keys (core.personal.vault_connection), while with MONGODB_URI the service
    # refuses to start unless KEY_VAULT_SHARES_BACKUPS says that the vault may live in the data's own database, and
    # its backups.
    master_key: str | None = field(default=None, repr=False)
    key_vault_uri: str | None = field(default=None, repr=False)
    key_vault_database: str | None = None
    key_vault_shares_backups: bool = False
    admin_key: str | None = None
    ai_provider: str = "local"
    embedding_provider: str = "local"
    openai_base_url: str | None = None
    openai_api_key: str | None = None
    openai_model: str = "gpt-4o-mini"
    openai_embedding_model: str = "text-embedding-3-small"
    auto_embed: bool = True  # listeners are embedded in the background after every run that touched them
    # The campaign platform (core.access.platform): its OAuth 2.0 service, its API and this service's client there.
    # Platform users sign in only when all four are set; the secret is left out of the settings' repr.
    auth_url: str | None = None
    platform_url: str | None = None
    platform_client_id: str | None = None
    platform_client_secret: str | None = field(default=None, repr=False)
    platform_company_field: str = "company_id"  # the campaign field that names its station (a.b for a nested one)
    platform_timeout_s: float = 5.0  # the longest wait for any answer of the platform; longer is "not answering"
    port: int = 8000
    # How long a request waits for an unreachable database before it answers 503. The driver looks again every 0.5 s,
    # so 400 answers in about half a second; a replica set that fails over needs more (10000 and up).
    db_timeout_ms: int = 400
    purge_at: str = "02:00"  # UTC time of the daily purge, when one is asked for
    # Erasure destroys keys and needs no purge (docs/decisions.md §7); True: the workers also rewrite the embedded
    # database's files daily (`flask --app wsgi purge` does it when asked), reclaiming the space of what was erased.
    daily_purge: bool = False
    # Each station's daily full run, at this time of day in the station's own time zone (00:00: its midnight), unless a
    # full run has covered the station's day since then. False: the server never segments by itself (cron runs
    # `flask --app wsgi segment --all` instead).
    segment_at: str = "00:00"
    daily_segmentation: bool = True
    # Hosts webhooks may reach over plain http, private or loopback addresses included (comma-separated names or
    # addresses, e.g. 127.0.0.1 for tests); every other endpoint must be https to a public address
    webhook_allow_hosts: tuple[str, ...] = ()
    # Failed sign-ins allowed per account (its normalised email) and per client address, as limits' "N/period"
    login_limit_account: str = "5/minute"
    login_limit_address: str = "20/minute"
    cookie_secure: bool = False  # True behind HTTPS: the session and remember-me cookies are only sent over it
    max_upload_mb: int = 100  # the largest request (an import file) the service reads; larger ones answer 413
    # Reverse proxies in front of the web processes whose X-Forwarded-For and -Proto are trusted (0: none): the
    # sign-in throttle counts per client address, which behind a proxy is only known from its header
    trusted_proxies: int = 0
    # How long a worker's claim of a job stands without renewal (renewed every quarter of it while the job runs): the
    # longest a dead worker's job waits for another worker. Shorter takes over sooner but renews more often.
    job_lease_s: float = 120.0
    # Alerts' mail (core.alerts): the SMTP server the worker sends digests and alerts through (no host: no mail),
    # its login (the password left out of the settings' repr), the sender, and STARTTLS before the login
    smtp_host: str | None = None
    smtp_port: int = 587
    smtp_user: str | None = None
    smtp_password: str | None = field(default=None, repr=False)
    smtp_from: str = "alerts@localhost"
    smtp_starttls: bool = True
    alerts_at: str = "07:00"  # each station's daily check of its alert rules, in the station's own time zone
    prices: dict = field(default_factory=lambda: dict(DEFAULT_PRICES))

    @classmethod
    def from_env(cls, env: dict | None = None) -> Settings:
        """Read the documented variables; unset ones keep their defaults."""
        env = os.environ if env is None else env
        return cls(
            mongodb_uri=env.get("MONGODB_URI") or None,
            data_dir=Path(env.get("DATA_DIR") or "var"),
            database_name=env.get("MONGODB_DATABASE") or "listeners",
            secret_key=env.get("SECRET_KEY") or "dev-secret-change-me",
            master_key=env.get("MASTER_KEY") or None,
            key_vault_uri=env.get("KEY_VAULT_URI") or None,
            key_vault_database=env.get("KEY_VAULT_DATABASE") or None,
            key_vault_shares_backups=_flag(env.get("KEY_VAULT_SHARES_BACKUPS"), False, "KEY_VAULT_SHARES_BACKUPS"),
            admin_key=env.get("ADMIN_KEY") or None,
            ai_provider=env.get("AI_PROVIDER") or "local",
            embedding_provider=env.get("EMBEDDING_PROVIDER") or "local",
            openai_base_url=env.get("OPENAI_BASE_URL") or None,
            openai_api_key=env.get("OPENAI_API_KEY") or None,
            openai_model=env.get("OPENAI_MODEL") or "gpt-4o-mini",
            openai_embedding_model=env.get("OPENAI_EMBEDDING_MODEL") or "text-embedding-3-small",
            auto_embed=_flag(env.get("AUTO_EMBED"), True, "AUTO_EMBED"),
            auth_url=env.get("AUTH_URL") or None,
            platform_url=env.get("PLATFORM_URL") or None,
            platform_client_id=env.get("PLATFORM_CLIENT_ID") or None,
            platform_client_secret=env.get("PLATFORM_CLIENT_SECRET") or None,
            platform_company_field=(env.get("PLATFORM_COMPANY_FIELD") or "company_id").strip(),
            platform_timeout_s=_seconds(env.get("PLATFORM_TIMEOUT_S") or "5", "PLATFORM_TIMEOUT_S"),
            port=int(env.get("PORT") or 8000),
            db_timeout_ms=int(env.get("DB_TIMEOUT_MS") or 400),
            purge_at=_clock_time(env.get("PURGE_AT") or "02:00", "PURGE_AT"),
            daily_purge=_flag(env.get("DAILY_PURGE"), False, "DAILY_PURGE"),
            segment_at=_clock_time(env.get("SEGMENT_AT") or "00:00", "SEGMENT_AT"),
            daily_segmentation=_flag(env.get("DAILY_SEGMENTATION"), True, "DAILY_SEGMENTATION"),
            webhook_allow_hosts=tuple(h.strip().lower() for h in (env.get("WEBHOOK_ALLOW_HOSTS") or "").split(",")
                                      if h.strip()),
            login_limit_account=_rate(env.get("LOGIN_LIMIT_ACCOUNT") or "5/minute", "LOGIN_LIMIT_ACCOUNT"),
            login_limit_address=_rate(env.get("LOGIN_LIMIT_ADDRESS") or "20/minute", "LOGIN_LIMIT_ADDRESS"),
            cookie_secure=_flag(env.get("COOKIE_SECURE"), False, "COOKIE_SECURE"),
            max_upload_mb=_positive(env.get("MAX_UPLOAD_MB") or "100", "MAX_UPLOAD_MB"),
            trusted_proxies=_count(env.get("TRUSTED_PROXIES") or "0", "TRUSTED_PROXIES"),
            smtp_host=env.get("SMTP_HOST") or None,
            smtp_port=_positive(env.get("SMTP_PORT") or "587", "SMTP_PORT"),
            smtp_user=env.get("SMTP_USER") or None,
            smtp_password=env.get("SMTP_PASSWORD") or None,
            smtp_from=(env.get("SMTP_FROM") or "alerts@localhost").strip(),
            smtp_starttls=_flag(env.get("SMTP_STARTTLS"), True, "SMTP_STARTTLS"),
            alerts_at=_clock_time(env.get("ALERTS_AT") or "07:00", "ALERTS_AT"),
            job_lease_s=_seconds(env.get("JOB_LEASE_S") or "120", "JOB_LEASE_S"),
        )

    @property
    def platform_configured(self) -> bool:
        """True when platform users can sign in: both URLs and this service's client id and secret are set."""
        return all((self.auth_url, self.platform_url, self.platform_client_id, self.platform_client_secret))


class StartRefused(RuntimeError):
    """A setting, or what it points at, that no process may start with (an unreadable master key, a key vault inside
    the data's backups); its message is one sentence for the operator, which every entry point prints alone."""


def _clock_time(value: str, name: str) -> str:
    """An HH:MM setting, checked at start-up so that a typo fails loudly rather than never running."""
    hours, _, minutes = value.strip().partition(":")
    if not (hours.isdigit() and minutes.isdigit() and int(hours) < 24 and int(minutes) < 60 and len(minutes) == 2):
        raise ValueError(f"{name} must be a time HH:MM, got {value!r}")
    return f"{int(hours):02d}:{minutes}"


def _rate(value: str, name: str) -> str:
    """A rate such as 5/minute (or several: 5/minute;50/day), checked at start-up: the limiter reads it at the first
    sign-in, where a typo would switch the throttle off rather than fail."""
    try:
        limits.parse_many(value)
    except ValueError:
        raise ValueError(f"{name} must be a rate such as 5/minute or 20/hour, got {value!r}") from None
    return value.strip()


def _count(value: str, name: str) -> int:
    """A whole number, zero or more; anything else fails at start-up."""
    if not value.strip().isdigit():
        raise ValueError(f"{name} must be a whole number (0 or more), got {value!r}")
    return int(value)


def _positive(value: str, name: str) -> int:
    """A whole number above zero; anything else fails at start-up."""
    if not value.strip().isdigit() or int(value) < 1:
        raise ValueError(f"{name} must be a whole number above 0, got {value!r}")
    return int(value)


def _seconds(value: str, name: str) -> float:
    """A number of seconds above zero (0.5 is fine); anything else fails at start-up."""
    try:
        seconds = float(value.strip())
    except ValueError:
        seconds = 0.0
    if not 0 < seconds < float("inf"):
        raise ValueError(f"{name} must be a number of seconds above 0, got {value!r}")
    return seconds


def _flag(value: str | None, default: bool, name: str) -> bool:
    """A true/false setting; anything else fails at start-up."""
    if value is None or not value.strip():
        return default
    text = value.strip().lower()
    if text not in ("true", "false", "1", "0", "yes", "no"):
        raise ValueError(f"{name} must be true or false, got {value!r}")
    return text in ("true", "1", "yes")


_active: list[Settings] = []


def activate(settings: Settings) -> None:
    """Make these the settings of this process (the app factory calls it; core reads them with `active`)."""
    _active[:] = [settings]


def active() -> Settings:
    """The process's settings: those activated by the app factory, else read from the environment."""
    return _active[0] if _active else Settings.from_env()
