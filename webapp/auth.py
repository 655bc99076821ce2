"""Signing in and out, and choosing a station: local users of core.access.users and campaign platform users of
core.access.platform_sessions (who is who: core.access.sign_in), sessions by flask-login."""
from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, session, url_for
from flask_login import UserMixin, current_user, login_required, login_user, logout_user
from flask_wtf import FlaskForm
from marshmallow import fields
from wtforms import BooleanField, EmailField, PasswordField
from wtforms.validators import DataRequired

from api.arguments import RequestSchema
from core.access.platform_sessions import current_platform_session, end_platform_session
from core.access.sign_in import platform_configured, sign_in
from core.access.users import end_sessions, session_user
from core.errors import PlatformUnavailable
from core.segmentation.overview import station_summary
from webapp.asking import asked
from webapp.helpers import safe_next, stations_of
from webapp.throttle import count_failed_sign_in, sign_in_limited

bp = Blueprint("auth", __name__)

PLATFORM = "p:"
"""What starts the session id of a platform user: `p:` and the platform session's random id, nothing else."""
NO_MATCH = "That email and password do not match an account."


class DashboardUser(UserMixin):
    """The signed-in producer as the pages see them: who they are and which stations they may open."""

    def __init__(self, user):
        self.id = str(user.id)
        self.session_version = user.session_version
        self.email = user.email
        self.name = user.name or ""
        self.companies = tuple(user.companies or ())
        self.admin = bool(user.admin)
        self.campaigns = None  # a local user's campaigns are not known: they come from the campaign platform

    @property
    def display_name(self) -> str:
        """The name when known, else the email."""
        return self.name or self.email

    def can_open(self, company_id: int) -> bool:
        """Admins open every station; others only their own."""
        return self.admin or company_id in self.companies

    def get_id(self) -> str:
        """What the session and the remember-me cookie hold: the account and the version of its sessions."""
        return f"{self.id}:{self.session_version}"

    def sign_out(self) -> None:
        """End every session of the account, on every device."""
        end_sessions(self.id)


class PlatformUser(DashboardUser):
    """A campaign platform user: the stations and campaigns the platform gives them; never an administrator."""

    def __init__(self, access):
        self.id = access.id
        self.email = access.username
        self.name = ""
        self.companies = access.companies
        self.admin = False
        self.campaigns = list(access.campaigns)

    def get_id(self) -> str:
        """What the session and the remember-me cookie hold: the random id of the platform session, not a token."""
        return PLATFORM + self.id

    def sign_out(self) -> None:
        """Delete this sign-in's session and its tokens."""
        end_platform_session(self.id)


def load_user(session_id: str) -> DashboardUser | None:
    """flask-login's user loader: the stored account, None if it was removed or signed out since the session or
    remember-me cookie was made; for a platform user their session, renewed as needed, None when it has ended."""
    if session_id.startswith(PLATFORM):
        found = current_platform_session(session_id.removeprefix(PLATFORM))
        return PlatformUser(found) if found is not None else None
    user_id, _, version = session_id.partition(":")
    user = session_user(user_id, int(version)) if version.isdigit() else None
    return DashboardUser(user) if user is not None else None


class LoginForm(FlaskForm):
    """Email and password of a local account or of a campaign platform account."""

    email = EmailField("Email", validators=[DataRequired()])
    password = PasswordField("Password", validators=[DataRequired()])
    remember = BooleanField("Keep me signed in on this computer")


class LoginArgs(RequestSchema):
    """The sign-in page's address: the page to go back to (webapp.helpers.safe_next checks it is one of ours)."""

    next = fields.Str()


@bp.route("/login", methods=["GET", "POST"])
@sign_in_limited
def login():
    """The sign-in form; on success, back to the page that asked for it or to the user's stations."""
    back, form, error = asked(LoginArgs(), filled=True).get("next"), LoginForm(), None
    if form.validate_on_submit():
        try:
            user = signed_in(form.email.data, form.password.data)
        except PlatformUnavailable as failure:
            user, error = None, failure.detail
        if user is not None:
            session.clear()  # a new session: nothing of the anonymous one goes on, its CSRF token least of all
            login_user(user, remember=form.remember.data)
            return redirect(safe_next(back) or url_for("overview.index"))
        count_failed_sign_in()
        error = error or NO_MATCH
    elif form.errors:
        error = "Enter your email and password to sign in."
    return render_template("auth/login.html", form=form, error=error, platform=platform_configured(),
                           back=back)


def signed_in(email: str, password: str) -> DashboardUser | None:
    """The dashboard user these credentials sign in as (core.access.sign_in says who), None when they match none."""
    found = sign_in(email, password)
    if found is None:
        return None
    return PlatformUser(found.platform) if found.platform is not None else DashboardUser(found.local)


@bp.post("/logout")
@login_required
def logout():
    """End the session: a local account's every session (old session and remember-me cookies stop working), a
    platform user's session and its tokens."""
    current_user.sign_out()
    logout_user()
    flash("You have signed out.")
    return redirect(url_for("auth.login"))


@bp.get("/stations")
@login_required
def stations():
    """The station picker; a user with a single station goes straight to it."""
    mine = stations_of(current_user)
    if len(mine) == 1:
        return redirect(url_for("overview.page", company_id=mine[0]["company_id"]))
    summaries = {s["company_id"]: station_summary(s["company_id"]) for s in mine}
    return render_template("auth/stations.html", stations=mine, summaries=summaries)
