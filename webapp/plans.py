"""Saved plans: "Save this plan" on a recommendation keeps it (core.campaigns.plans); the briefs page lists them; a
plan reopens for free as the recommendation was shown, turns into an audience in one click (the audience form with
its filters and the plan's id), lists the audiences made from it with their results, and downloads as a PDF a
producer forwards to an advertiser (written from a print template by fpdf2), a page of results per audience."""
from __future__ import annotations

from flask import Blueprint, Response, flash, redirect, render_template, url_for
from flask_login import current_user, login_required
from marshmallow import fields

from core.audiences.arms import PLAN_HOLDOUT_PERCENT
from core.audiences.results import audience_results, audiences_of_plan
from core.campaigns.plans import get_plan, save_plan
from webapp.asking import PageForm, asked
from webapp.helpers import filter_pairs, link, open_station
from webapp.recommendations import reco_context, station_names

bp = Blueprint("plans", __name__)

PDF_CHARACTERS = str.maketrans({"…": "...", "·": "-", "’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-",
                                "×": "x", "≥": ">=", "≤": "<=", " ": " ", "€": "EUR ", "−": "-"})
"""What the PDF's built-in font cannot draw, as it is written instead (the rest of Latin-1 is drawn as it is)."""
KEEP = "<!--keep-->"
"""Where the print template parts blocks that must each stay on one page (a bullet, a heading with its text)."""
NEW_PAGE = "<!--page-->"
"""Where the print template starts a new page (each audience's results)."""


class SaveForm(PageForm):
    """"Save this plan": the cache key of the recommendation shown."""

    key = fields.Str(required=True)


@bp.post("/stations/<int:company_id>/plans")
@login_required
def save(company_id: int):
    """Keep the recommendation just shown (by its cache key) as a plan, then open it (post/redirect/get)."""
    open_station(company_id)
    plan = save_plan(company_id, asked(SaveForm(), "form")["key"], getattr(current_user, "email", ""))
    flash(f"Plan saved: “{plan['name']}”. It is listed on the briefs page and reopens for free.")
    return redirect(url_for("plans.detail", company_id=company_id, plan_id=plan["plan_id"]), code=303)


@bp.get("/stations/<int:company_id>/plans/<plan_id>")
@login_required
def detail(company_id: int, plan_id: str):
    """A saved plan as its recommendation was shown, with its PDF, a one-click audience and the audiences made
    from it with their verdicts; 404 when unknown."""
    station = open_station(company_id)
    plan = get_plan(company_id, plan_id)
    pairs = filter_pairs(plan["filters"])
    plan["audience_url"] = link(url_for("audiences.new", company_id=company_id),
                                [("audience_name", plan["name"][:60]), ("theme", plan["name"]),
                                 ("holdout_percent", PLAN_HOLDOUT_PERCENT), ("plan_id", plan_id), *pairs])
    return render_template("plans/page.html", station=station, plan=plan, made=made_from(company_id, plan_id),
                           **reco_context(plan["recommendation"], pairs, station_names(company_id)))


@bp.get("/stations/<int:company_id>/plans/<plan_id>.pdf")
@login_required
def pdf(company_id: int, plan_id: str):
    """The plan as a PDF: the print template's HTML drawn by fpdf2, with a page of results per audience made from
    it."""
    station = open_station(company_id)
    plan = get_plan(company_id, plan_id)
    context = reco_context(plan["recommendation"], filter_pairs(plan["filters"]), station_names(company_id))
    html = render_template("plans/print.html", station=station, plan=plan, made=made_from(company_id, plan_id),
                           **context)
    from fpdf import FPDF  # about 0.7 s to import: only a PDF needs it, not every process that serves pages

    document = FPDF(format="A4")
    document.set_title(plan["name"][:120].translate(PDF_CHARACTERS))
    document.add_page()
    document.set_font("helvetica", size=11)
    for number, part in enumerate(_latin1(html).split(NEW_PAGE)):
        if number:
            document.add_page()
        for block in part.split(KEEP):
            with document.offset_rendering() as trial:  # a block that would cross a page starts the next one
                trial.write_html(block)
            if trial.page_break_triggered and document.y > document.t_margin + 1:  # one taller than a page: let be
                document.add_page()
            document.write_html(block)
    filename = f"plan-{plan_id}.pdf"
    return Response(bytes(document.output()), mimetype="application/pdf",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def made_from(company_id: int, plan_id: str) -> list[dict]:
    """The audiences made from the plan, newest first, each with its results as the API answers them."""
    return [{**made, "results": audience_results(company_id, made["audience_id"])}
            for made in audiences_of_plan(company_id, plan_id)]


def _latin1(text: str) -> str:
    """The text in what the built-in font draws: common punctuation spelt out, anything else as a question mark."""
    return text.translate(PDF_CHARACTERS).encode("latin-1", "replace").decode("latin-1")
