"""Erasure and the audit trail: erasure reaches the core stores itself and every other store through the hooks
they register at start-up, so it never imports them."""
