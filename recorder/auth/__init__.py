"""Who may write: bearer tokens, the principals they name, and the one access policy.

Pure (standard library only) apart from ``service.py``, which reaches the store:

- ``tokens``: minting tokens, their digests, and ``Principal`` (admin, arbiter,
  recorder, or the anonymous principal of ``--open``);
- ``policy``: ``allowed(principal, action, resource)``, the single decision every
  write makes (docs/security.md has the table);
- ``service``: ``Authenticator``: token -> principal, issuing and revoking tokens,
  the first-run admin token.
"""
