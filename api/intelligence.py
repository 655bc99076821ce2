"""Intelligence: /api/v1/intelligence, the churn risk of one listener and the composite profile of a segment."""
from __future__ import annotations

from flask.views import MethodView
from marshmallow import Schema, fields, validate

from api.arguments import Blueprint, RequestSchema, Whole
from api.search import CoverageFields
from core.intelligence import segment_profile as profiles
from core.intelligence.risk import listener_churn_risk
from core.search.lookalikes import NO_INTERACTIONS, SIMILAR_LIMIT, similar_listeners
from core.segmentation.rules import SEGMENTS


class SignalSchema(Schema):
    name = fields.Str(metadata={"description": "silence, habit, trend or reach: the part of their behaviour it reads"})
    points = fields.Float(metadata={"description": "how far the score moves when this part of their behaviour is "
                                                   "replaced by the station's typical listener's (negative: it "
                                                   "lowers the score)"})
    effect = fields.Str(metadata={"enum": ["raises", "lowers", "barely moves"]})
    sentence = fields.Str(metadata={"description": "the signal with the listener's own numbers"})


class BacktestSchema(Schema):
    chosen = fields.Str(metadata={"enum": ["model", "recency", "bgnbd"],
                                  "description": "what scores the station: its own model, days since the last "
                                                 "interaction, or BG/NBD's expected active days"})
    reason = fields.Str(metadata={"description": "why, in a sentence"})
    horizon_days = fields.Int()
    held_out = fields.Str(metadata={"description": "the date of the cut-off the methods were checked on"})
    labelled = fields.Int(metadata={"description": "listeners checked at that cut-off"})
    sampled_from = fields.Int(allow_none=True, metadata={
        "description": "listeners heard from, of whom a random sample were learned from and checked (null: all of "
                       "them were)"})
    auc = fields.Dict(keys=fields.Str(), values=fields.Float(allow_none=True), metadata={
        "description": "per method: the chance it ranked a listener who went quiet above one who did not"})
    brier = fields.Dict(keys=fields.Str(), values=fields.Float(allow_none=True), metadata={
        "description": "per method: mean squared error of its probabilities (lower is better)"})


class ChurnRiskSchema(Schema):
    company_id = fields.Int()
    originator = fields.Str()
    probability = fields.Float(allow_none=True, metadata={
        "description": "the chance they send nothing within the horizon, calibrated on the station's past (null: "
                       "never heard from)"})
    level = fields.Str(metadata={"enum": ["low", "medium", "high"],
                                 "description": "high from a score of 70, medium from 40, else low"})
    score = fields.Int(metadata={"description": "0 to 100: the probability in hundredths (100 for a listener never "
                                                "heard from)"})
    signals = fields.List(fields.Nested(SignalSchema), metadata={"description": "what moved the score most first"})
    method = fields.Str(metadata={"description": "what scored it (backtest.chosen)"})
    backtest = fields.Nested(BacktestSchema, allow_none=True, metadata={
        "description": "how the station's scoring did on its own past (null before a full run learned it)"})
    as_of = fields.Str(metadata={"description": "the time the score is computed for (ISO 8601, UTC)"})


class ProfileValueSchema(Schema):
    value = fields.Str(allow_none=True, metadata={"description": "as the filter parameter of the facet takes it; "
                                                                 "null: listeners without a value"})
    label = fields.Str(metadata={"description": "the value's name, for coded values (channels, shows, days, months)"})
    segment_count = fields.Int()
    segment_share = fields.Float(metadata={"description": "segment_count / profiled (0..1)"})
    station_count = fields.Int()
    station_share = fields.Float(metadata={"description": "station_count / station_size (0..1)"})
    lift = fields.Float(allow_none=True, metadata={"description": "segment_share / station_share"})


class TraitSchema(ProfileValueSchema):
    facet = fields.Str()
    sentence = fields.Str()


def _group(what: str) -> fields.Dict:
    return fields.Dict(keys=fields.Str(), values=fields.List(fields.Nested(ProfileValueSchema)),
                       metadata={"description": f"{what}: facet -> values, most common in the segment first"})


class SegmentProfileSchema(Schema):
    company_id = fields.Int()
    segment = fields.Str()
    label = fields.Str()
    meaning = fields.Str()
    size = fields.Int(metadata={"description": "listeners of the segment in the station"})
    profiled = fields.Int(metadata={"description": "listeners profiled: up to `limit`, the most engaged first"})
    limit = fields.Int()
    station_size = fields.Int(metadata={"description": "listeners of the station (erased ones excluded)"})
    as_of = fields.Str(allow_none=True, metadata={"description": "when the listeners were last profiled"})
    declared = _group(", ".join(profiles.GROUPS["declared"]))
    inferred = _group(", ".join(profiles.GROUPS["inferred"]))
    channels = _group("primary channel (channel_type) and channels used (has_channel)")
    interests = _group(", ".join(profiles.GROUPS["interests"]))
    engagement = _group(", ".join(profiles.GROUPS["engagement"]))
    distinctive = fields.List(fields.Nested(TraitSchema), metadata={
        "description": f"the traits that most set the segment apart: highest lift among values held by at least "
                       f"{round(100 * profiles.MIN_SHARE)}% and {profiles.MIN_COUNT} of the profiled listeners, at "
                       f"{profiles.MIN_LIFT} times the station's share or more"})


blp = Blueprint("intelligence", __name__, url_prefix="/api/v1/intelligence",
                description="Churn risk, look-alike listeners and segment profiles")

SEGMENT_PARAM = {"in": "path", "name": "segment_key", "schema": {"type": "string", "enum": list(SEGMENTS)},
                 "description": "a segment key; any other is 422 naming the known ones"}


class ProfileArgsSchema(RequestSchema):
    limit = Whole(1, profiles.MAX_LIMIT, load_default=profiles.DEFAULT_LIMIT, metadata={
        "description": "listeners of the segment to profile: the most engaged first (highest RFM total, then "
                       "originator)"})


@blp.route("/listeners/<company:company_id>/<originator>/churn-risk")
class ChurnRisk(MethodView):
    @blp.response(200, ChurnRiskSchema)
    def get(self, company_id: int, originator: str):
        """Churn risk of one listener: level, score 0 to 100 and the signals behind it"""
        return listener_churn_risk(company_id, originator)


class SimilarArgsSchema(RequestSchema):
    limit = Whole(*SIMILAR_LIMIT, load_default=20)
    min_score = fields.Float(load_default=0.75, validate=validate.Range(0.0, 1.0),
                             metadata={"description": "lowest score returned: the share of look-alikes scoring so "
                                                      "on the station that shared the listener's main traits"})
    exclude_segment = fields.Str(validate=validate.OneOf(SEGMENTS),
                                 metadata={"description": "leave out listeners of this segment"})


LOOKALIKE_RESULTS = ("listener records as the filter endpoint gives them, each with `score` (the share of "
                     "look-alikes with its similarity that held the listener's main show, channel and campaign type "
                     "and half their tags and interests, on the station's own listeners; the raw similarity when "
                     "`calibrated` is false), `similarity` (the raw (1 + cosine) / 2 of the two listeners' "
                     "behaviour), `shared` (the listener's main show, channel and campaign type this one holds "
                     "too, and the tags and interests both have, as {trait, values}) and `matched` (the same as "
                     "sentences)")


class SimilarSchema(CoverageFields):
    company_id = fields.Int()
    originator = fields.Str()
    exclude_segment = fields.Str(allow_none=True)
    min_score = fields.Float()
    limit = fields.Int()
    indexed = fields.Int(metadata={"description": "how many of the candidates have interactions (a behaviour vector): "
                                                  "only they can be alike"})
    model = fields.Str(metadata={"description": "what alike is measured by: shares of interactions per show, "
                                                "channel and campaign type, and tags and interests"})
    calibrated = fields.Bool(metadata={"description": "false: the station is too small to measure, scores are "
                                                      "the raw similarity"})
    total = fields.Int()
    best_score = fields.Float(allow_none=True, metadata={
        "description": "the best score among the candidates, returned or not (what a lower min_score would show)"})
    reason = fields.Str(allow_none=True, metadata={
        "enum": [NO_INTERACTIONS, None],
        "description": f"why there are no look-alikes at all: {NO_INTERACTIONS}, the listener has no interaction "
                       "to be alike in"})
    results = fields.List(fields.Dict(), metadata={
        "description": f"best first, never the listener itself: {LOOKALIKE_RESULTS}"})


@blp.route("/listeners/<company:company_id>/<originator>/similar")
class Similar(MethodView):
    @blp.arguments(SimilarArgsSchema, location="query", as_kwargs=False)
    @blp.response(200, SimilarSchema)
    def get(self, args: dict, company_id: int, originator: str):
        """Listeners ranked by how alike they behave to one listener (behaviour vectors)"""
        return similar_listeners(company_id, originator, args.get("exclude_segment"), args["min_score"],
                                 args["limit"])


@blp.route("/segments/<company:company_id>/<segment_key>/profile", parameters=[SEGMENT_PARAM])
class SegmentProfile(MethodView):
    @blp.arguments(ProfileArgsSchema, location="query", as_kwargs=False)
    @blp.response(200, SegmentProfileSchema)
    def get(self, args: dict, company_id: int, segment_key: str):
        """Composite profile of a segment against its whole station"""
        return profiles.segment_profile(company_id, segment_key, args["limit"])
