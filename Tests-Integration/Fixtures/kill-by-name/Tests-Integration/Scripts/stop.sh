#!/bin/sh
set -e
kill $(pgrep -f tokens-server) || true
