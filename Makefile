# The two commands: `make run` and `make test`. Everything else is a step of those.
SHELL := /bin/bash
NODE_MODULES_STAMP := node_modules/.install-stamp
PORT ?= 8080
LOCALNET_RPC_PORT ?= 8899
LOCALNET_GRPC_PORT ?= 10000

.PHONY: install build run test bench lint clean localnet soak

$(NODE_MODULES_STAMP): package.json package-lock.json
	npm install --no-audit --no-fund
	@touch $(NODE_MODULES_STAMP)

install: $(NODE_MODULES_STAMP)

build: install
	npx tsc -p tsconfig.json

## Starts the localnet and the service wired to it; Ctrl-C stops both.
run: build
	@bash scripts/run.sh

localnet: build
	node dist/fixtures/localnet/main.js

## Every test: unit, property and integration, on the compiled output.
test: build
	@bash scripts/test.sh

bench: build
	@bash scripts/bench.sh

## The fault soak: SOAK_MINUTES (10) of random localnet faults while clients read; the report as JSON.
soak: build
	node dist/bench/soak.js

lint: install
	npx eslint .

clean:
	rm -rf dist
