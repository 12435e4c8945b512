"""The serial link to an automatic table's point display, and a simulated table."""
