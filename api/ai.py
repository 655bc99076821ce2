"""AI operations: /api/v1/ai, segment insights, one listener's AI profile and the promotion of its inferred
demographics. Each new inference is charged in credits (402 when the balance is short, 403 while paused); every
answer says what it cost and the balance left."""
from __future__ import annotations

from flask.views import MethodView
from marshmallow import Schema, fields

from api.arguments import Blueprint
from api.bodies import JsonNumber
from core.ai.insights import ai_segment_insights
from core.ai.profile import ai_listener_profile
from core.ai.promote import THRESHOLD, promote_demographics

PAID = "402 when the balance is below the price; 403 while the company's AI usage is paused"


class MeteredFields(Schema):
    """What every paid AI answer says of its price: who answered, the tokens, and the credits as the credits endpoints
    give them (whole when they can be: 499, not 499.0)."""

    provider = fields.Str(metadata={"description": "local or openai"})
    model = fields.Str(allow_none=True)
    tokens_in = fields.Int()
    tokens_out = fields.Int()
    cached = fields.Bool(metadata={"description": "true: a stored answer, which costs nothing"})
    cost = JsonNumber(metadata={"description": "credits this answer cost (0 when cached)"})
    balance = JsonNumber(metadata={"description": "the company's credits left after it"})


class CostFields(MeteredFields):
    made_at = fields.Str(metadata={"description": "when the answer was made (ISO 8601, UTC)"})


class GuessSchema(Schema):
    value = fields.Str()
    confidence = fields.Float(allow_none=True, metadata={
        "description": "0..1; on the local provider, how often values with this vote share were right on the "
                       "station's own declared data; null when the guess rests on too little evidence for one (fewer "
                       "than 5 look-alikes agreeing and fewer than 2 of the listener's messages speaking for it)"})
    evidence = fields.Str(metadata={"description": "why, in a sentence"})


class InferredSchema(Schema):
    inferred_gender = fields.Nested(GuessSchema, allow_none=True)
    inferred_age_group = fields.Nested(GuessSchema, allow_none=True)
    inferred_language = fields.Nested(GuessSchema, allow_none=True)
    inferred_location = fields.Nested(GuessSchema, allow_none=True)
    inferred_lsm = fields.Nested(GuessSchema, allow_none=True)


class AiProfileSchema(CostFields):
    company_id = fields.Int()
    originator = fields.Str()
    inferred = fields.Nested(InferredSchema)
    interests = fields.List(fields.Nested(GuessSchema), metadata={"description": "interest tags, strongest first"})
    expires_at = fields.Str(metadata={"description": "when the cached answer stops being reused (30 days)"})


class PromotedSchema(Schema):
    field = fields.Str()
    from_ = fields.Str(data_key="from", attribute="from")
    value = fields.Str(allow_none=True)
    confidence = fields.Float(allow_none=True)
    reason = fields.Str(metadata={"description": "why it was skipped"})


class PromotionSchema(Schema):
    company_id = fields.Int()
    originator = fields.Str()
    threshold = fields.Float()
    promoted = fields.List(fields.Nested(PromotedSchema))
    skipped = fields.List(fields.Nested(PromotedSchema))


class SegmentInsightSchema(Schema):
    segment = fields.Str()
    label = fields.Str()
    meaning = fields.Str(metadata={"description": "what the segment means for this station, from its figures"})
    actions = fields.List(fields.Str(), metadata={"description": "what to do about it, most urgent first"})
    priority = fields.Str(metadata={"enum": ["high", "medium", "low"]})
    figures = fields.Dict(metadata={"description": "the figures the answer was grounded in: count, percentage, "
                                                   "churn mix, movements"})


class AiInsightsSchema(CostFields):
    company_id = fields.Int()
    as_of = fields.Str(allow_none=True)
    total_listeners = fields.Int()
    headline = fields.Str()
    data_version = fields.Int(metadata={"description": "the station's data the answer was made from; it is reused "
                                                       "until that changes"})
    segments = fields.List(fields.Nested(SegmentInsightSchema))


blp = Blueprint("ai_inference", __name__, url_prefix="/api/v1/ai", description="AI inference, metered by credits")


@blp.route("/segments/<company:company_id>/insights")
class SegmentInsights(MethodView):
    @blp.response(200, AiInsightsSchema)
    @blp.alt_response(402, response="PAYMENT_REQUIRED", description=PAID)
    def get(self, company_id: int):
        """AI plain-English insights for all segments: meaning and recommended actions"""
        return ai_segment_insights(company_id)


@blp.route("/listeners/<company:company_id>/<originator>")
class ListenerAiProfile(MethodView):
    @blp.response(200, AiProfileSchema)
    @blp.alt_response(402, response="PAYMENT_REQUIRED", description=PAID)
    def get(self, company_id: int, originator: str):
        """AI demographic inference and interest tagging for one listener; cached 30 days"""
        return ai_listener_profile(company_id, originator)


@blp.route("/listeners/<company:company_id>/<originator>/promote-demographics")
class PromoteDemographics(MethodView):
    @blp.response(200, PromotionSchema, description=f"inferred values with a confidence of {THRESHOLD:.2f} or more "
                                                    "copied into empty declared fields; declared values never change")
    def put(self, company_id: int, originator: str):
        """Promote inferred demographics into empty declared fields"""
        return promote_demographics(company_id, originator)
