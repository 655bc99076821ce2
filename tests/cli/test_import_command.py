"""`flask --app wsgi import KIND FILE`: summary, bad rows with their line numbers, exit codes."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.listeners.models import InteractionBatch, Listener
from core.stations.models import Company, Show
from tests.factories import stored_listener

pytestmark = pytest.mark.db

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def row(**overrides) -> str:
    fields = {"company_id": 7, "originator": "27821234567", "timestamp": "2026-11-20T07:15:00+02:00",
              "channel_type": 2, "campaign_type": "song_request"} | overrides
    return json.dumps(fields)


def test_import_prints_a_summary_and_the_bad_rows_with_their_line_numbers(runner, tmp_path):
    path = tmp_path / "interactions.jsonl"
    path.write_text("\n".join([row(), row(channel_type="two"), row(), "{oops", row(originator="27827654321")]) + "\n")
    result = runner.invoke(args=["import", "interactions", str(path)])
    assert result.exit_code == 0, result.output
    assert "rows:       5" in result.output
    assert "imported:   2" in result.output
    assert "duplicates: 1" in result.output
    assert "bad rows:   2" in result.output
    assert "line 2: channel_type 'two' is not a known name" in result.output
    assert "line 4: not valid JSON" in result.output
    assert InteractionBatch.objects.count() == 2


def test_more_than_20_bad_rows_are_summarised(runner, tmp_path):
    path = tmp_path / "interactions.jsonl"
    path.write_text("\n".join(row(channel_type=0) for _ in range(25)) + "\n")
    result = runner.invoke(args=["import", "interactions", str(path)])
    assert result.exit_code == 0
    assert "line 20:" in result.output and "line 21:" not in result.output
    assert "... and 5 more (see the import report)" in result.output


def test_a_file_that_cannot_be_read_exits_with_1(runner, tmp_path):
    path = tmp_path / "interactions.txt"
    path.write_text(row() + "\n")
    result = runner.invoke(args=["import", "interactions", str(path)])
    assert result.exit_code == 1
    assert "unknown file type .txt" in result.output and ".jsonl" in result.output
    assert InteractionBatch.objects.count() == 0


@pytest.mark.parametrize("args", [["import", "listeners", "x.jsonl"], ["import", "interactions", "missing.jsonl"]])
def test_an_unknown_kind_or_missing_file_is_a_usage_error(runner, args):
    assert runner.invoke(args=args).exit_code == 2


def test_a_long_file_imports_with_a_progress_bar(runner, tmp_path):
    path = tmp_path / "interactions.jsonl"
    path.write_text("\n".join(row(originator=f"2782{i % 500:07d}", interaction_id=str(i)) for i in range(12_000)))
    result = runner.invoke(args=["import", "interactions", str(path)])
    assert result.exit_code == 0, result.output
    assert "Importing interactions" in result.output and "imported:   12000" in result.output
    assert Listener.objects.count() == 500


def test_the_example_files_import_without_bad_rows(runner):
    for kind, name in [("channels", "channels.csv"), ("shows", "shows.jsonl"), ("profiles", "profiles.csv"),
                       ("profiles", "profiles.jsonl"), ("interactions", "interactions.jsonl"),
                       ("interactions", "interactions.csv")]:
        result = runner.invoke(args=["import", kind, str(EXAMPLES / name)])
        assert result.exit_code == 0 and "bad rows:   0" in result.output, result.output
    assert Company.objects.get(company_id=7).channel_names()[2] == "WhatsApp"
    assert Show.objects(company_id=7).count() == 6
    assert stored_listener(7, "27821234567").mobile_number == "+27821234567"
    again = runner.invoke(args=["import", "interactions", str(EXAMPLES / "interactions.jsonl")])
    assert "imported:   0" in again.output and "duplicates: 6" in again.output


def test_warnings_are_printed_apart_from_bad_rows(runner, tmp_path):
    path = tmp_path / "profiles.csv"
    path.write_text("company_id,originator,name,mobile_number,gender\n"
                    "7,27821234567,Thandi,n/a,xyz\n"
                    "7,,Sipho,082 123 4567,male\n"
                    "7,27827654321,Lerato,082-765-4321,female\n")
    result = runner.invoke(args=["import", "profiles", str(path)])
    assert result.exit_code == 0, result.output
    assert "imported:   2" in result.output and "bad rows:   1" in result.output
    assert "warnings:   2" in result.output
    assert "line 3: missing originator" in result.output
    assert "line 2: warning: mobile_number is not a valid phone number" in result.output
    assert "line 2: warning: gender must be one of" in result.output
    assert "n/a" not in result.output and "xyz" not in result.output
    assert stored_listener(7, "27827654321").mobile_number == "+27827654321"


def test_more_than_20_warnings_are_summarised(runner, tmp_path):
    path = tmp_path / "profiles.jsonl"
    path.write_text("\n".join(json.dumps({"company_id": 7, "originator": f"o{i}", "gender": "xyz"})
                              for i in range(25)) + "\n")
    result = runner.invoke(args=["import", "profiles", str(path)])
    assert "line 20: warning:" in result.output and "line 21: warning:" not in result.output
    assert "... and 5 more warnings (see the import report)" in result.output
