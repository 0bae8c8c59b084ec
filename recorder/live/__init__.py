"""Live boards apart from HTTP: the watchers that fan each change out to every stream of a
process, the streams' admission and messages, the broadcast delay's filter, and the live
process's gunicorn configuration. The paths that open streams are recorder/api/live.py."""
