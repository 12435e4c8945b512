"""Printing: the settlement PDF, the fonts it embeds, score charts, QR codes and tile pictures."""
