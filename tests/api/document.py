"""The API's OpenAPI document as the tests read it: built on a bare app (it needs no database), at collection time."""
from __future__ import annotations

import pytest
from flask import Flask

import api


def openapi_document() -> dict:
    """The document the API serves at /api/v1/openapi.json."""
    return api.init_app(Flask(__name__)).spec.to_dict()


def documented_operations() -> list:
    """Every operation of the document as a test parameter (METHOD, path), so that a new one is tested too."""
    return [pytest.param(method.upper(), path, id=f"{method.upper()} {path}")
            for path, item in openapi_document()["paths"].items() for method in item if method != "parameters"]
