"""The mails of alerts, written with the standard library (email.message, HTML with a text alternative) and sent over
the SMTP server the environment names: the weekly digest of a station (segment sizes this week against last week and
four weeks ago, new and lost listeners, the at-risk share, the alerts that fired) and a firing's mail at once."""
from __future__ import annotations

import smtplib
from datetime import date, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from html import escape

from core.alerts.models import AlertFiring
from core.alerts.rules import latest_point, new_between
from core.config import active
from core.history.query import segment_history
from core.outbound import tls_context
from core.segmentation.rules import LABELS, SEGMENTS
from core.stations.companies import get_company
from core.text.wording import number, percent, plural

TIMEOUT_S = 30
NO_MAIL_SERVER = ("No mail server is set (SMTP_HOST), so no e-mail is sent: the rule is saved and its alerts are kept "
                  "and shown here, and its e-mail starts once the operator sets a mail server.")
"""Why a rule that mails is saved all the same, said wherever it is saved or shown (warned, never refused: the
rules a station makes before the server is set start mailing once it is)."""
CELL = "padding:6px 10px;border-bottom:1px solid #d0d7de;text-align:right"
HEAD = "padding:6px 10px;border-bottom:2px solid #1f2328;text-align:right"


def mail_warning(delivery) -> str | None:
    """The warning a rule delivered by e-mail carries while no mail server is set; None otherwise."""
    return NO_MAIL_SERVER if "email" in (delivery or ()) and not active().smtp_host else None


def send(message: EmailMessage, recipients: list[str]) -> None:
    """Send over SMTP_HOST:SMTP_PORT, after STARTTLS and a login when the settings ask for them."""
    settings = active()
    message["From"], message["To"] = settings.smtp_from, ", ".join(recipients)
    message["Message-ID"] = make_msgid(domain=settings.smtp_from.rpartition("@")[2] or None)
    with smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=TIMEOUT_S) as smtp:
        if settings.smtp_starttls:
            smtp.starttls(context=tls_context())
        if settings.smtp_user:
            smtp.login(settings.smtp_user, settings.smtp_password or "")
        smtp.send_message(message, to_addrs=recipients)


def digest_content(company_id: int, period: str) -> dict:
    """What the digest of the station's week (YYYY-Www) says, from its history and the week's firings."""
    year, week = (int(part) for part in period.split("-W"))
    day = date.fromisocalendar(year, week, 7)
    points = segment_history(company_id, day - timedelta(days=42), day, "day")["points"]
    now, last, month = (latest_point(points, day - timedelta(days=d)) for d in (0, 7, 28))
    rows = [{"label": LABELS[key], "now": _size(now, key), "last_week": _size(last, key),
             "four_weeks_ago": _size(month, key)} for key in SEGMENTS]
    rows.append({"label": "All listeners", **{k: p and p["total"] for k, p in
                                              (("now", now), ("last_week", last), ("four_weeks_ago", month))}})
    firings = AlertFiring._get_collection().find({"company_id": company_id, "period": period}, {"_id": 0},
                                                 sort=[("fired_at", 1)])
    lost = [p for p in points if (day - timedelta(days=7)).isoformat() < p["date"] <= day.isoformat()]
    return {"station": get_company(company_id).name or f"Station {company_id}", "period": period,
            "week_to": f"{day.day} {day:%B %Y}", "rows": rows, "new": new_between(points, day, 7),
            "lost": sum(p.get("lost", 0) for p in lost) if lost else None,
            "at_risk": [_share(p) for p in (now, last)], "firings": [firing_line(f) for f in firings]}


def digest_message(company_id: int, period: str) -> EmailMessage:
    """The digest as a mail: text first, HTML as its alternative."""
    content = digest_content(company_id, period)
    message = EmailMessage()
    alerts = plural(len(content["firings"]), "alert")
    message["Subject"] = f"{content['station']}: the week to {content['week_to']}, {alerts}"
    message.set_content(digest_text(content))
    message.add_alternative(digest_html(content), subtype="html")
    return message


def firing_message(firing: dict) -> EmailMessage:
    """A firing's mail at once: the rule in words and its values."""
    line = firing_line(firing)
    message = EmailMessage()
    message["Subject"] = f"Alert: {firing['rule']['description']}"
    message.set_content(f"{line}\n")
    message.add_alternative(_page(f"<h1 style=\"font-size:20px\">Alert</h1><p>{escape(line)}</p>"), subtype="html")
    return message


def digest_text(content: dict) -> str:
    """The digest as plain text."""
    lines = [f"{content['station']}: the week to {content['week_to']}", "",
             "Segment sizes: now / last week / four weeks ago"]
    lines += [f"- {row['label']}: {_n(row['now'])} / {_n(row['last_week'])} / {_n(row['four_weeks_ago'])}"
              for row in content["rows"]]
    lines += ["", _listeners_line(content), _at_risk_line(content), "", "Alerts that fired:"]
    lines += [f"- {line}" for line in content["firings"]] or ["- none this week"]
    return "\n".join(lines) + "\n"


def digest_html(content: dict) -> str:
    """The digest as HTML with inline styles (mail readers drop style sheets), its table headed for screen readers."""
    head = "".join(f'<th scope="col" style="{HEAD}">{name}</th>'
                   for name in ("Now", "Last week", "Four weeks ago"))
    body = "".join(f'<tr><th scope="row" style="{CELL};text-align:left">{escape(row["label"])}</th>'
                   + "".join(f'<td style="{CELL}">{_n(row[k])}</td>' for k in ("now", "last_week", "four_weeks_ago"))
                   + "</tr>" for row in content["rows"])
    alerts = "".join(f"<li>{escape(line)}</li>" for line in content["firings"]) or "<li>None this week.</li>"
    return _page(f'<h1 style="font-size:20px;margin:0 0 4px">{escape(content["station"])}</h1>'
                 f'<p style="margin:0 0 16px;color:#57606a">The week to {escape(content["week_to"])}</p>'
                 f'<h2 style="font-size:16px">Segment sizes</h2>'
                 f'<table style="border-collapse:collapse;width:100%;max-width:560px"><caption style="text-align:left;'
                 f'padding-bottom:6px">Listeners in each segment</caption><thead><tr><th scope="col" style="{HEAD};'
                 f'text-align:left">Segment</th>{head}</tr></thead><tbody>{body}</tbody></table>'
                 f'<p>{escape(_listeners_line(content))}</p><p>{escape(_at_risk_line(content))}</p>'
                 f'<h2 style="font-size:16px">Alerts that fired</h2><ul>{alerts}</ul>')


def _page(inner: str) -> str:
    return ('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Listener alerts</title></head>'
            '<body style="font-family:Arial,Helvetica,sans-serif;color:#1f2328;background:#ffffff;margin:0;'
            f'padding:16px;line-height:1.5">{inner}</body></html>')


def _listeners_line(content: dict) -> str:
    if content["new"] is None:
        return "No segmentation run recorded this week, so new and lost listeners are not known."
    return f"{plural(content['new'], 'new listener')} and {plural(content['lost'] or 0, 'lost listener')} this week."


def _at_risk_line(content: dict) -> str:
    now, last = content["at_risk"]
    if now is None:
        return "The at-risk share is not known this week."
    before = f" (last week {percent(last)})" if last is not None else ""
    return f"At risk: {percent(now)} of listeners{before}."


def firing_line(firing: dict) -> str:
    """'At risk grows by 10% week on week: 1,100 on 2026-11-20, against 1,000 (+10%)'."""
    values, day = firing["values"], date.fromisoformat(firing["date"])
    compared = "" if values.get("compared") is None else f", against {number(values['compared'])}"
    change = "" if values.get("change_percent") is None else f" ({values['change_percent']:+g}%)"
    return f"{firing['rule']['description']}: {number(values['value'])} on {day.day} {day:%B %Y}{compared}{change}"


def _size(point: dict | None, key: str) -> int | None:
    return None if point is None else int(point["segments"].get(key, 0))


def _share(point: dict | None) -> float | None:
    return point["segments"].get("at_risk", 0) / point["total"] if point and point["total"] else None


def _n(value) -> str:
    return "–" if value is None else number(value)
