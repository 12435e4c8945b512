"""The Flask application and the command line: the one place that wires the others together."""
