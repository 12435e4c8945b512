"""Words: messages in both languages, Japanese terms, yaku and classical Chinese item names, and
the plain-text explanation of a scored hand."""
