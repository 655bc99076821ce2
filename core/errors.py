"""Domain errors. The API and the pages each translate them in one place."""


class DomainError(Exception):
    """Base of every error a user can cause; `status` is the HTTP status the edges use."""

    status = 400

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


class NotFound(DomainError):
    status = 404


class CompanyNotFound(NotFound):
    pass


class ListenerNotFound(NotFound):
    SHOWN = 12  # characters of the asked-for originator an answer repeats

    @classmethod
    def of(cls, originator: str) -> "ListenerNotFound":
        """Not found, naming at most a short prefix: a path can carry anything, and the answer must not reflect it."""
        shown = originator if len(originator) <= cls.SHOWN else originator[:cls.SHOWN] + "…"
        return cls(f"Listener {shown} not found")


class AudienceNotFound(NotFound):
    """An audience id unknown to the company (another company's id is unknown too); never repeats the id asked."""

    def __init__(self, detail: str = "Audience not found"):
        super().__init__(detail)


class Forbidden(DomainError):
    status = 403


class Unauthorized(DomainError):
    status = 401


class Conflict(DomainError):
    status = 409


class CreditsExhausted(DomainError):
    status = 402


class AiPaused(Forbidden):
    pass


class DatabaseUnavailable(DomainError):
    """The database does not answer (down, restarting or unreachable); the edges answer 503 with Retry-After."""

    status = 503
    retry_after = 5

    def __init__(self, detail: str = "The station's data is unavailable right now; try again in a few seconds."):
        super().__init__(detail)


class ProviderUnavailable(DomainError):
    """An outside model (embeddings, inference) failed, timed out or answered garbage; 503 with Retry-After."""

    status = 503
    retry_after = 10


class ValidationFailed(DomainError):
    """Invalid input; `items` follow the 422 shape: [{"loc": [...], "msg": ..., "type": ...}]."""

    status = 422

    def __init__(self, items: list[dict]):
        super().__init__("; ".join(f"{'.'.join(map(str, i['loc']))}: {i['msg']}" for i in items))
        self.items = items

    @classmethod
    def one(cls, loc: list, msg: str, type_: str = "value_error") -> "ValidationFailed":
        """A single-item validation error."""
        return cls([{"loc": list(loc), "msg": msg, "type": type_}])


class PlatformRejected(Unauthorized):
    """The campaign platform refused the credentials, a refresh token or an access token (OAuth `invalid_grant`):
    the person signs in again; a wrong password is said as for a local account."""

    def __init__(self, detail: str = "That email and password do not match an account."):
        super().__init__(detail)


class PlatformUnavailable(DomainError):
    """The campaign platform is down, slower than PLATFORM_TIMEOUT_S or answered something that is not what OAuth
    and its API promise; 503 with Retry-After. Never carries the platform's own words, which may hold anything."""

    status = 503
    retry_after = 30

    def __init__(self, detail: str = "The campaign platform is not answering; local accounts can still sign in. "
                                     "Try again in a minute."):
        super().__init__(detail)
