#!/bin/sh
# always_hang.sh FILE: never ends by itself.
sleep 30
