#!/usr/bin/env python3
"""A local OTLP/HTTP sink for bench/tracing-cost.sh: answers every POST /v1/traces with 200 and counts the bytes and
requests; GET /count prints them. 127.0.0.1 only. Usage: bench/otlp-sink.py PORT"""
import http.server
import sys
import threading

lock = threading.Lock()
received = {"requests": 0, "bytes": 0}


class Sink(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        with lock:
            received["requests"] += 1
            received["bytes"] += length
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        with lock:
            body = ("requests=%d bytes=%d\n" % (received["requests"], received["bytes"])).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Sink).serve_forever()
