"""moto server for the test script, serving one request at a time.

moto's DynamoDB backend is not thread-safe: TransactWriteItems deep-copies
the table while another request thread writes to it, and answers 500
(``RuntimeError: dictionary changed size during iteration``). DynamoDB has
no such race, so tests that write concurrently (the schema-evolution recipe:
a migration's parallel segments beside two writers) would fail on an
emulator bug. A lock around each request keeps the threaded server (and
its keep-alive connections) and removes the race. Python's GIL runs one
request at a time anyway, so nothing is lost.

Usage: python moto_server.py HOST PORT
"""

import sys
import threading

from werkzeug.serving import run_simple
from moto.moto_server.werkzeug_app import (
    DomainDispatcherApplication,
    MotoRequestHandler,
    create_backend_app,
)

LOCK = threading.Lock()


def main() -> None:
    host, port = sys.argv[1], int(sys.argv[2])
    app = DomainDispatcherApplication(create_backend_app)

    def serialized(environ, start_response):
        with LOCK:
            # moto's responses are built whole, so the body is ready here.
            return list(app(environ, start_response))

    run_simple(host, port, serialized, threaded=True, request_handler=MotoRequestHandler)


if __name__ == "__main__":
    main()
