"""The rules' error types: every refusal is a ``ValueError`` that names the rule."""


class RulesError(ValueError):
    """Root of every error the rules engines raise."""


class IllegalAction(RulesError):
    """An action the rules refuse; the message says which rule and what was wrong.

    The state the action was applied to is left untouched.
    """


class OptionError(RulesError):
    """An unknown or invalid game option; the message names the option."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"option {option!r}: {message}")
        self.option = option
