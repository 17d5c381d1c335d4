"""The server's routers, one per concern; `create_app` includes them in this order."""
