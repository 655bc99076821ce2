"""What the campaign agent answers, as the OpenAPI document describes it (api.agent's views dump through these)."""
from __future__ import annotations

from marshmallow import Schema, fields

from api.ai import MeteredFields
from core.churn.explain import LEVELS
from core.search.words import GOALS

RISKS = ", ".join(LEVELS)
ANY_VALUE = {"description": "a filter value: a string, an integer or a boolean"}


class BriefCriterionSchema(Schema):
    field = fields.Str(metadata={"description": "a shared filter name, or dates, budget or goal"})
    values = fields.List(fields.Raw(metadata=ANY_VALUE), metadata={
        "description": "the filter's values; dates: [start, end]; budget: [amount, currency]; goal: [goal]"})
    words = fields.Str(metadata={"description": "the words of the brief it came from"})


class BriefDatesSchema(Schema):
    start = fields.Str(metadata={"description": "first day, YYYY-MM-DD"})
    end = fields.Str(metadata={"description": "last day, YYYY-MM-DD"})
    words = fields.Str()
    given = fields.Bool(metadata={"description": "true when the request gave them (recommend's `dates`)"})
    weekdays = fields.List(fields.Int(), metadata={
        "description": "ISO weekdays the run is on air, when not every day: [6, 7] for a run of weekends (\"this "
                       "weekend and next\")"})


class BriefReadingSchema(Schema):
    start = fields.Str(metadata={"description": "first day, YYYY-MM-DD (a question about dates)"})
    end = fields.Str(metadata={"description": "last day, YYYY-MM-DD (a question about dates)"})
    amount = fields.Float(metadata={"description": "the amount (a question about the budget)"})
    currency = fields.Str(metadata={"description": "ISO 4217 (a question about the budget)"})
    words = fields.Str(metadata={"description": "the reading in words (\"2 Nov 2027 to 5 Nov 2027\", \"up to R40 "
                                                "000\")"})


class BriefQuestionSchema(Schema):
    field = fields.Str(metadata={"description": "what the question is about: dates or budget"})
    words = fields.Str(metadata={"description": "the words of the brief it is about"})
    question = fields.Str(metadata={"description": "why it is asked and what to give, in words"})
    readings = fields.List(fields.Nested(BriefReadingSchema), metadata={
        "description": "the ways the words read (dates: to send back as recommend's `dates`); empty when none "
                       "can be offered (unreadable, a vague period, an amount per week with no count)"})


class BriefBudgetSchema(Schema):
    amount = fields.Float()
    currency = fields.Str(metadata={"description": "ISO 4217; ZAR when the brief says R or rand, or nothing"})
    words = fields.Str()


class BriefGoalSchema(Schema):
    value = fields.Str(metadata={"enum": list(GOALS)})
    words = fields.Str()


class BriefUnmappedSchema(Schema):
    words = fields.Str(metadata={"description": "what the brief asks"})
    reason = fields.Str(metadata={"description": "why no filter expresses it"})


class ParsedBriefSchema(Schema):
    criteria = fields.List(fields.Nested(BriefCriterionSchema))
    filters = fields.Dict(keys=fields.Str(), values=fields.Raw(), metadata={
        "description": "shared filter name -> value (a list for repeatable filters), ready to send as filters"})
    dates = fields.Nested(BriefDatesSchema, allow_none=True, metadata={
        "description": "null when the brief names none, or when it asks a question about them (`questions`)"})
    questions = fields.List(fields.Nested(BriefQuestionSchema), metadata={
        "description": "what the brief leaves open and the service will not guess: dates that read two ways, that "
                       "cannot be read, that lie in the past or name a vague period; a budget given as a range or "
                       "several amounts; each with its readings"})
    budget = fields.Nested(BriefBudgetSchema, allow_none=True)
    goal = fields.Nested(BriefGoalSchema, allow_none=True)
    unmapped = fields.List(fields.Nested(BriefUnmappedSchema))
    unused = fields.List(fields.Str(), metadata={
        "description": "the brief's words that nothing above was read from, as phrases in their order (\"Black "
                       "Friday deals\"): the plan does not act on them"})


class ParseBriefAnswerSchema(ParsedBriefSchema, MeteredFields):
    company_id = fields.Int()
    brief = fields.Str()


class RecommendEntrySchema(Schema):
    value = fields.Raw(metadata={"description": "the value: a segment key, channel_type, show id, daypart ..."})
    label = fields.Str()
    count = fields.Int(metadata={"description": "listeners"})
    share = fields.Float(metadata={"description": "percentage of the audience (of the sample for themes)"})


def _entries(description: str) -> fields.List:
    return fields.List(fields.Nested(RecommendEntrySchema), metadata={"description": description})


class RecommendShareSchema(Schema):
    count = fields.Int()
    share = fields.Float()


class RecommendChurnSchema(Schema):
    sampled = fields.Int()
    low = fields.Nested(RecommendShareSchema)
    medium = fields.Nested(RecommendShareSchema)
    high = fields.Nested(RecommendShareSchema)


class RecommendSampleSchema(Schema):
    size = fields.Int()
    drawn = fields.Str(metadata={"description": "how the sample was drawn"})


class RecommendEmptiedSchema(Schema):
    field = fields.Str()
    value = fields.Raw()
    before = fields.Int(metadata={"description": "listeners matching the filters taken before this one"})


class RecommendAudienceSchema(Schema):
    size = fields.Int(metadata={"description": "listeners the combined filters select"})
    reachable = fields.Int(metadata={"description": "of them, opted in and with permission given"})
    reachable_share = fields.Float()
    segments = _entries("segments, most listeners first")
    channels = _entries("primary channels")
    dayparts = _entries("peak time of day")
    days = _entries("primary day of the week")
    weekday_share = fields.Float(metadata={"description": "percentage interacting mostly Monday to Friday"})
    shows = _entries("shows they took part in, most first")
    interests = _entries("tags and inferred interests")
    sample = fields.Nested(RecommendSampleSchema)
    churn = fields.Nested(RecommendChurnSchema, metadata={"description": f"the sample by churn risk: {RISKS}"})
    themes = _entries("themes of the sample's messages")
    figures = fields.Dict(keys=fields.Str(), values=fields.Float(), metadata={
        "description": "every figure a claim may cite, by name (segment.super_fan, channel.2, reachable ...)"})
    emptied_by = fields.Nested(RecommendEmptiedSchema, allow_none=True, metadata={
        "description": "when nobody matches: the filter that left nobody"})


class RecommendFigureSchema(Schema):
    name = fields.Str(metadata={"description": "a key of audience.figures"})
    value = fields.Float()
    words = fields.Str(metadata={"description": "the figure as a person reads it, with the station's names "
                                                "(\"Occasional engagers: 23 of the audience\")"})


class RecommendClaimSchema(Schema):
    text = fields.Str()
    figure = fields.Nested(RecommendFigureSchema, metadata={"description": "the figure the claim rests on"})


class RecommendPlanSchema(Schema):
    summary = fields.Str()
    target = fields.List(fields.Nested(RecommendClaimSchema), metadata={"description": "segments to target, and why"})
    channels = fields.List(fields.Nested(RecommendClaimSchema))
    timing = fields.List(fields.Nested(RecommendClaimSchema), metadata={"description": "dayparts and days"})
    angles = fields.List(fields.Nested(RecommendClaimSchema), metadata={"description": "message angles"})
    expected_reach = fields.Nested(RecommendClaimSchema)
    dropped_claims = fields.Int(metadata={"description": "claims of the model left out for misquoting a figure"})


class RecommendOverrideSchema(Schema):
    field = fields.Str()
    from_brief = fields.Raw(metadata={"description": "the value the brief gave"})
    given = fields.Raw(metadata={"description": "the value of the request, which was applied"})


class RecommendAnswerSchema(MeteredFields):
    company_id = fields.Int()
    brief = fields.Str()
    sample_size = fields.Int()
    made_at = fields.Str(metadata={"description": "when the answer was made (ISO 8601, UTC)"})
    expires_at = fields.Str(metadata={"description": "when it stops being served from the cache (24 hours)"})
    criteria = fields.Nested(ParsedBriefSchema, metadata={"description": "the brief parsed, as parse-brief answers it"})
    filters = fields.Dict(keys=fields.Str(), values=fields.Raw(), metadata={
        "description": "the filters applied: the brief's, with the request's over them"})
    overridden = fields.List(fields.Nested(RecommendOverrideSchema), metadata={
        "description": "filters of the request that replaced a different value of the brief"})
    audience = fields.Nested(RecommendAudienceSchema)
    recommendation = fields.Nested(RecommendPlanSchema)
    schedule = fields.Dict(allow_none=True, metadata={
        "description": "what the brief's dates and budget make of the plan: `dates` (the run: start, end, days, "
                       "weekend_days, state `ahead`, `started` or `ended` on the station's day the plan was made, "
                       "days_left, words), `airings` (the audience's most listened shows: title, when they air, "
                       "airings within the days left, on_holidays: those on a public "
                       "holiday, listeners), `holidays` (the station's country's public holidays in the days left: "
                       "days [date, name], airings on them, words; null when none falls there), `budget` (amount, "
                       "currency, spots per show by the "
                       "station's rate card, spent, per_reachable, words; without a rate card it says what is "
                       "needed), `reach` (when the audience is too thin for the budget: per_listener, ceiling, "
                       "carries, currency, words, widen [field, value, size, reachable, per_listener without that "
                       "filter], longer, proposal; null when it carries it); each null when the brief gave nothing"})
