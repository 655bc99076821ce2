"""URL converters: company_id accepts any segment so that a bad value answers 422 (not 404), documented as integer."""
from werkzeug.routing import BaseConverter


class CompanyIdConverter(BaseConverter):
    """Matches one path segment; the API's request hook validates it as an integer."""

    regex = "[^/]+"
