"""Semantic search: listeners by the meaning of a plain-language query, within the shared filters."""
from __future__ import annotations

from flask.views import MethodView
from marshmallow import Schema, fields, validate

from api.arguments import Blueprint, Whole
from api.filter_args import FilterArgs
from core.search.search import LIMIT, MIN_SCORE, SEARCH_LIMIT, search_listeners


class SearchArgsSchema(FilterArgs):
    """Search's own arguments and the shared filters (`location` is search's own: a partial match here)."""

    q = fields.Str(required=True, validate=validate.Length(max=500),  # a blank q: every blank value is refused
                   metadata={"description": "what to look for, in plain language"})
    min_score = fields.Float(load_default=MIN_SCORE, validate=validate.Range(0.0, 1.0),
                             metadata={"description": "lowest score returned: the share of results like it that "
                                                      "were relevant on the station's own labelled queries; higher "
                                                      "is stricter"})
    limit = Whole(*SEARCH_LIMIT, load_default=LIMIT)
    location = fields.Str(metadata={"description": "partial, case-insensitive, or a place at any level (province, "
                                                   "metro, city, suburb; by name, other name or ISO code: Gauteng, "
                                                   "GP, Joburg, KZN) that takes every location lying in it"})
    as_text = fields.List(fields.Str(validate=validate.Length(min=1, max=500)), validate=validate.Length(max=10),
                          metadata={"description": "words of q (as `understood.criteria[].words` gives them) to "
                                                   "read as free text rather than as a criterion, repeatable"})


RESULTS = ("listener records as the filter endpoint gives them (declared fields, tags, flags, behavioural profile, "
           "segment, RFM, inferred values), each with `score` (when the listener meets every criterion of a query "
           "with no free text, 0.7 to 1 by how strongly: how many interactions match it, how recent; else the share "
           "of results with its similarity that were relevant on the station's own labelled queries), "
           "`similarity` (the raw (1 + cosine) / 2, null for a listener not embedded yet) "
           "and `matched` (the parts of the listener's profile that share words with the query, else its leading "
           "traits)")


class CriterionSchema(Schema):
    words = fields.Str(metadata={"description": "the words of q it was read from"})
    field = fields.Str(metadata={"description": "a shared filter (has_channel for a channel: used at all)"})
    values = fields.List(fields.Raw(), metadata={"description": "any of them (all, for an exclude_ filter)"})
    labels = fields.List(fields.Str(), metadata={"description": "the values as the station names them (show titles, "
                                                                "channel names, segment labels; for a place, every "
                                                                "location of the station that lies in it)"})
    bound = fields.Int(allow_none=True, metadata={
        "description": "criteria with the same number (an index of `understood.bound`) must hold on the same "
                       "interactions (\"competition entries on WhatsApp\"); null: on its own"})


class BoundSchema(Schema):
    words = fields.List(fields.Str(), metadata={"description": "the words of q of each criterion bound together"})
    label = fields.Str(metadata={"description": "the group in words, e.g. \"competition · on WhatsApp\""})


class UnmappedSchema(Schema):
    words = fields.Str()
    reason = fields.Str()


class StationValueSchema(Schema):
    field = fields.Str(metadata={"description": "tags, inferred_interests or timeslot_id"})
    value = fields.Raw()
    label = fields.Str(metadata={"description": "the value as the station names it"})
    similarity = fields.Float(metadata={"description": "the model's cosine between the words and the value"})


class MeantSchema(Schema):
    words = fields.Str(metadata={"description": "the free word"})
    values = fields.List(fields.Nested(StationValueSchema))


class UnderstoodSchema(Schema):
    criteria = fields.List(fields.Nested(CriterionSchema), metadata={
        "description": "what q asks of a listener, met exactly: criteria of the same words are alternatives, "
                       "criteria of different words must all hold"})
    bound = fields.List(fields.Nested(BoundSchema), metadata={
        "description": "groups of criteria named together, met by the same interactions"})
    free_text = fields.Str(metadata={"description": "the words left: a listener is an answer only when they hold "
                                                    "what these are about (empty: none)"})
    unmapped = fields.List(fields.Nested(UnmappedSchema), metadata={"description": "negations no filter can say"})
    meant = fields.List(fields.Nested(MeantSchema), metadata={
        "description": "free words the embedding model read as values of the station: holding one counts as "
                       "having written the word"})


class PlaceReadSchema(Schema):
    asked = fields.Str(metadata={"description": "the `location` given"})
    place = fields.Str(allow_none=True, metadata={"description": "the place of the gazetteer it names (null: none)"})
    level = fields.Str(allow_none=True, metadata={"description": "country, province, metro, district or town or "
                                                                "suburb"})
    values = fields.List(fields.Str(), metadata={"description": "the station's locations it took"})
    said = fields.Str(metadata={"description": "the same in words"})


class CoverageFields(Schema):
    """How many listeners an answer ranked among, and how many of them have a vector yet (fewer while the station is
    being embedded: the others could not be ranked by meaning, which is not "nobody matched")."""

    candidates = fields.Int(metadata={"description": "listeners the filters (and a query's criteria) allowed"})
    indexed = fields.Int(metadata={"description": "how many of the candidates have a vector yet"})
    seconds_left = fields.Int(allow_none=True, metadata={
        "description": "while fewer are indexed: about how many seconds until the embedding under way has read them "
                       "all, at the pace it has kept (null: nothing is waited for, or its pace is not known yet)"})


class SearchSchema(CoverageFields):
    company_id = fields.Int()
    q = fields.Str()
    model = fields.Str(metadata={"description": "provider:model of the vectors"})
    min_score = fields.Float()
    limit = fields.Int()
    understood = fields.Nested(UnderstoodSchema, metadata={"description": "how q was read"})
    location = fields.Nested(PlaceReadSchema, allow_none=True, metadata={
        "description": "how `location` was read: which of the station's locations it took (null: not given)"})
    calibrated = fields.Bool(metadata={"description": "true: every result holds what q asks for and is scored "
                                                      "0.7 to 1 by how strongly (docs/decisions.md §5)"})
    total = fields.Int(metadata={"description": "how many listeners match at min_score, however many are shown"})
    shown = fields.Int(metadata={"description": "how many of them `results` holds (at most `limit`)"})
    suggestions = fields.List(fields.Nested(StationValueSchema), metadata={
        "description": "when nobody holds what q is about: the station's values closest to it (else empty)"})
    best_score = fields.Float(allow_none=True, metadata={"description": "the best score among the candidates, "
                                                                       "returned or not (null: no candidate)"})
    results = fields.List(fields.Dict(), metadata={"description": f"best first: {RESULTS}"})


blp = Blueprint("semantic_search", __name__, url_prefix="/api/v1/segments",
                description="Find listeners by meaning, within the shared filters")


@blp.route("/<company:company_id>/search")
class Search(MethodView):
    @blp.arguments(SearchArgsSchema, location="query", as_kwargs=False)
    @blp.response(200, SearchSchema)
    def get(self, args: dict, company_id: int):
        """Semantic search with a natural-language query, narrowed by the filters before ranking"""
        return search_listeners(company_id, args["q"], args["flt"], args.get("location"), args["min_score"],
                                args["limit"], tuple(args.get("as_text", ())))
