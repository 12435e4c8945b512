"""The one error type of the scorer: a contract error code and a message for a player."""


class HandError(ValueError):
    """A request the scorer cannot score.

    `code` is one of the error codes of the hand JSON contract; `message` says, in a
    player's words, which tile, meld or flag is wrong.
    """

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict:
        return {"ok": False, "error": {"code": self.code, "message": self.message}}
