#!/bin/bash
# An integration script that ends at once with one PASS.
echo "PASS quick:done"
