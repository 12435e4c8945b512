"""Images in, tiles and a proposed hand out; the training pipeline behind models/."""
