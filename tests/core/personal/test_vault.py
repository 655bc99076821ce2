"""Content keys made in bulk under new names: the vault is not asked for the names first, and a name another process
made meanwhile keeps its key, so that nothing is sealed under a key the vault does not hold."""
from __future__ import annotations

import pytest

from core.personal.vault_connection import key_vault

pytestmark = pytest.mark.db


def test_content_keys_made_together_each_open_and_each_is_destroyed_by_its_name(app):
    vault = key_vault()
    made = vault.new_content_keys(["test:a", "test:b", "test:c"], fresh=True)
    assert len({key for key, _ in made}) == 3
    assert vault.open_content_keys(sealed for _, sealed in made) == [key for key, _ in made]
    vault.destroy(["test:b"])
    assert vault.open_content_keys(sealed for _, sealed in made) == [made[0][0], None, made[2][0]]


def test_a_fresh_name_already_in_the_vault_is_sealed_under_the_key_that_stands(app):
    vault = key_vault()
    [(first, first_sealed)] = vault.new_content_keys(["test:taken"], fresh=True)
    [(second, second_sealed)] = vault.new_content_keys(["test:taken"], fresh=True)  # as a second process would
    assert vault.open_content_keys([first_sealed, second_sealed]) == [first, second]
    assert vault.collection.count_documents({"keyAltNames": "test:taken"}) == 1
    vault.destroy(["test:taken"])
    assert vault.open_content_keys([first_sealed, second_sealed]) == [None, None]
