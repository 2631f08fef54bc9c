"""Jupyter server for the galata tests: galata's test settings, loopback only, root allowed."""

from jupyterlab.galata import configure_jupyter_server

c = get_config()  # type: ignore[name-defined]  # noqa: F821
configure_jupyter_server(c)
c.ServerApp.ip = "127.0.0.1"
c.ServerApp.allow_root = True  # NB: CI and this machine run everything as root
c.LanguageServerManager.autodetect = False
