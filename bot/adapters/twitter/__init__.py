"""X (Twitter): mentions and DMs in, posts and DMs out.

The package keeps the platform's name in the code, ``twitter``, as the config
section (``[twitter]``) and the stored platform key do. The adapter module's
docstring says which module does what.
"""

from bot.adapters.twitter.adapter import TwitterAdapter
from bot.adapters.twitter.credentials import TwitterCredentials

__all__ = ["TwitterAdapter", "TwitterCredentials"]
