"""Places as a map: a station's location values read into South Africa's hierarchy (suburb or township, city or town,
metro or district, province, country) from a gazetteer derived from open data (data/za.json, data/NOTICE), and the
values that lie in a place named at any level, by any of its names or codes ("Gauteng", "GP", "Joburg", "KZN")."""
