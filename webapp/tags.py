"""Tag names: every tag and AI interest of the station with the name pages give it, which a producer may change
(core.stations.labels). Data keeps the tag as imported; only what pages say changes."""
from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from flask_login import login_required
from marshmallow import fields

from core.errors import ValidationFailed
from core.segmentation.overview import tag_names
from core.stations.labels import MAX_LABEL, set_tag_labels
from core.text.wording import plural
from webapp.asking import PageForm, asked
from webapp.helpers import open_station

bp = Blueprint("tags", __name__)


class TagsForm(PageForm):
    """The names given, each tag's beside it (in the order the page lists them); a blank name gives the default
    back."""

    tag = fields.List(fields.Str(), required=True)
    label = fields.List(fields.Str(), required=True, metadata={"blank": "the tag's default name"})


@bp.get("/stations/<int:company_id>/tags")
@login_required
def page(company_id: int):
    """The station's tags and interests, each with its name and a field to change it."""
    station = open_station(company_id)
    return render_template("tags/page.html", station=station, tags=tag_names(company_id), problems={},
                           max_label=MAX_LABEL)


@bp.post("/stations/<int:company_id>/tags")
@login_required
def save(company_id: int):
    """Keep the names given (a blank one gives the default back), then show the page again (post/redirect/get);
    a name that cannot be kept is said beside its field and nothing is changed."""
    station = open_station(company_id)
    form = asked(TagsForm(), "form")
    given = dict(zip(form["tag"], form["label"], strict=False))
    try:
        kept = set_tag_labels(company_id, given)
    except ValidationFailed as error:
        problems = {item["loc"][-1]: item["msg"] for item in error.items}
        return render_template("tags/page.html", station=station, tags=tag_names(company_id), problems=problems,
                               max_label=MAX_LABEL, given=given), 422
    flash(f"Saved. {plural(len(kept), 'tag')} named by the station; the others are written in sentence case.")
    return redirect(url_for("tags.page", company_id=company_id), code=303)
