"""The campaign agent: an advertiser's brief parsed into the shared filters, and a recommendation synthesised from the
filtered audience's own figures."""
