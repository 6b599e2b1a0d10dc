# Tokens: one entry point for building, running and testing the five packages.
# Each package is still built and tested on its own (`swift test --package-path X`); they share
# one scratch folder so that the layers are compiled once.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
SWIFT ?= swift
SCRATCH ?= $(CURDIR)/.build-shared
# Our own code must compile without warnings (remote packages are built with warnings suppressed).
SWIFTC_FLAGS ?= -Xswiftc -warnings-as-errors
# Five root packages share one scratch folder, so SwiftPM must plan each build afresh: its cached
# plan can be another package's, and a build then "completes" without building (seen here).
SWIFTPM_FLAGS := --disable-build-manifest-caching
# Rule 10's check (no target imports a target of its package it does not declare) is part of
# the one debug build: make test names the packages it built (IMPORT_CHECKED) and the rule builds
# only the others; make check-architecture on its own builds every package with it.
IMPORT_CHECK := --explicit-target-dependency-import-check error
BUILD_FLAGS := --scratch-path $(SCRATCH) $(SWIFTPM_FLAGS) $(SWIFTC_FLAGS) $(IMPORT_CHECK)
# Each step of make test says when it starts (CI's output shows where the time goes).
STAMP = $$(date +%T)
LAYERS := Domain Data Presentation App
PACKAGES := $(LAYERS) Tests-Integration
BIN = $(shell $(SWIFT) build --scratch-path $(SCRATCH) --show-bin-path)
# Debian packages, installed when missing: what a build needs (make install, make
# release-server: no server, nothing that starts), and what the tests and tools add.
# zbar, libpng, libjpeg and zlib: their static archives read QR codes from pictures (Data's CPictureScan).
BUILD_DEB_PACKAGES := libsqlite3-dev pkg-config libzbar-dev libpng-dev libjpeg-dev zlib1g-dev
TEST_DEB_PACKAGES := tmux gdb faketime systemd postgresql-15 postgresql-common curl openssl wrk time prometheus nginx-light debootstrap systemd-container qrencode imagemagick
# $(call install-missing,PACKAGES): apt-get install those not installed (through sudo unless root).
# (A package removed but not purged still has a status: only "install ok installed" counts.)
install-missing = missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

.PHONY: format check-format workflows test-package help deps deps-test build run test test-layer test-changed test-layers test-each-layer test-integration test-integration-run server openapi test-install test-systemd check-architecture graph stress model-check model-check-server fuzz proto bench loadtest release order-file install uninstall release-server install-server uninstall-server clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-20s %s\n", $$1, $$2}'

deps: ## Install what the build needs (Debian packages; Swift packages resolve from the mirror)
	@command -v $(SWIFT) >/dev/null || { echo "Swift toolchain not found (need Swift 6.2 or later)"; exit 1; }
	@$(call install-missing,$(BUILD_DEB_PACKAGES))

deps-test: deps ## Install what the tests, benchmarks and tools add (PostgreSQL, nginx, Prometheus, wrk, tmux…)
	@$(call install-missing,$(TEST_DEB_PACKAGES))

build: deps ## Build every package
	@for p in $(PACKAGES); do echo "== build $$p"; $(SWIFT) build --package-path $$p $(BUILD_FLAGS); done

run: deps ## Build and start the interactive screen in the DEV phase (demo accounts, nothing on disk)
	@$(SWIFT) build --package-path App --product tokens $(BUILD_FLAGS)
	@"$(BIN)/tokens" --phase dev

test: deps-test check-format test-layers test-integration check-architecture test-install test-systemd ## The format, each package's tests on its own, the architecture rules, make install, then the server under systemd
# Every package was built above with $(IMPORT_CHECK), so rule 10 has nothing left to build.
test: IMPORT_CHECKED = $(if $(IMPORT_CHECK),$(PACKAGES))

# Runs a package's tests under the watchdog: built first (no time limit), then run with one. A
# stall prints every thread's backtrace and fails; a run that executes no test fails; only the
# run's own process group is ever killed (Tests-Integration/Scripts/test-watchdog.sh).
WATCHDOG := $(CURDIR)/Tests-Integration/Scripts/test-watchdog.sh
define swift_test
	$(SWIFT) build --package-path $(1) --build-tests $(BUILD_FLAGS) && \
	  "$(WATCHDOG)" $(2) $(SWIFT) test --package-path $(1) $(BUILD_FLAGS) --skip-build $(3)
endef

# A throw-away PostgreSQL cluster for the suites that need one (the sync server's store):
# pg_virtualenv (Debian's postgresql-common) starts it on loopback with fsync off, exports
# PGHOST, PGPORT, PGUSER and PGPASSWORD to the command, and drops the cluster when it ends.
# Its own folder goes under /tmp: run as root, it runs initdb as the postgres user, who cannot
# enter a private TMPDIR (.ci/run's); the tests keep that TMPDIR.
# Each tokens-server keeps 10 connections open, and the suites run many at once: 400 allowed.
WITH_POSTGRES = TMPDIR=/tmp pg_virtualenv -o max_connections=400 -t env TMPDIR="$${TMPDIR:-/tmp}"

test-layers:
	@$(WITH_POSTGRES) $(MAKE) --no-print-directory test-each-layer

test-each-layer:
	@for p in $(LAYERS); do echo "== test $$p ($(STAMP))"; $(call swift_test,$$p,600); done

# What one package's CI job runs (.github/workflows): that package's tests alone; for
# Tests-Integration, its suites, the architecture rules and the install test.
test-package: deps-test ## Test PACKAGE on its own, as its CI job does (make test-package PACKAGE=Presentation)
	@case " $(PACKAGES) " in *" $(PACKAGE) "*) ;; *) echo "usage: make test-package PACKAGE=$(subst $(eval) ,|,$(PACKAGES))"; exit 64;; esac
	@if [ "$(PACKAGE)" = Tests-Integration ]; then $(MAKE) --no-print-directory test-integration check-architecture test-install; \
	  else $(MAKE) --no-print-directory test-layers LAYERS=$(PACKAGE); fi

test-layer: deps-test ## Test LAYER (Domain, Data, Presentation or App) and every package that depends on it, from the manifests (make test-layer LAYER=Presentation)
	@test -n "$(LAYER)" || { echo "usage: make test-layer LAYER=Domain|Data|Presentation|App"; exit 64; }
	@$(MAKE) --no-print-directory check-format
	@$(SWIFT) build --package-path Tests-Integration --product archcheck $(BUILD_FLAGS)
	@packages="$$("$(BIN)/archcheck" --root "$(CURDIR)" --dependents "$(LAYER)")"; \
	  echo "== test-layer $(LAYER): $$packages"; \
	  layers=""; for p in $$packages; do [ "$$p" = Tests-Integration ] || layers="$$layers $$p"; done; \
	  $(WITH_POSTGRES) $(MAKE) --no-print-directory test-each-layer LAYERS="$$layers"; \
	  case " $$packages " in *" Tests-Integration "*) $(MAKE) --no-print-directory test-integration check-architecture IMPORT_CHECKED="$$packages";; esac

# The packages with files changed since BASE (committed or not), and every package that depends
# on them (the graph rule 11 checks), in dependency order; then the architecture rules.
# PRINT=1 only names them. `make test` stays the whole thing, and CI runs it.
test-changed: deps-test ## Test what changed since BASE and everything that depends on it, then the rules (make test-changed BASE=origin/main; PRINT=1 lists)
	@test -n "$(BASE)" || { echo "usage: make test-changed BASE=REF [PRINT=1]"; exit 64; }
	@$(SWIFT) build --package-path Tests-Integration --product archcheck $(BUILD_FLAGS) >/dev/null
	@changed="$$(git diff --name-only "$(BASE)" -- && git ls-files --others --exclude-standard)" || exit 1; \
	  selected=""; for p in $(PACKAGES); do \
	    if printf '%s\n' "$$changed" | grep -q "^$$p/"; then selected="$$selected $$("$(BIN)/archcheck" --root "$(CURDIR)" --dependents "$$p")"; fi; \
	  done; \
	  packages=""; for p in $(PACKAGES); do case " $$selected " in *" $$p "*) packages="$$packages $$p";; esac; done; \
	  echo "== test-changed since $(BASE):$${packages:- no package}"; \
	  [ -z "$(PRINT)" ] || exit 0; \
	  layers=""; for p in $$packages; do [ "$$p" = Tests-Integration ] || layers="$$layers $$p"; done; \
	  [ -z "$$layers" ] || $(WITH_POSTGRES) $(MAKE) --no-print-directory test-each-layer LAYERS="$$layers"; \
	  case " $$packages " in *" Tests-Integration "*) $(MAKE) --no-print-directory test-integration;; esac; \
	  $(MAKE) --no-print-directory check-format check-architecture IMPORT_CHECKED="$$packages"

test-integration:
	@echo "== test Tests-Integration ($(STAMP))"
	@$(SWIFT) build --package-path App --product tokens $(BUILD_FLAGS)
	@$(SWIFT) build --package-path App --product tokens-server $(BUILD_FLAGS)
	@$(WITH_POSTGRES) $(MAKE) --no-print-directory test-integration-run

test-integration-run:
	@export TOKENS_BIN="$(BIN)/tokens" TOKENS_SERVER_BIN="$(BIN)/tokens-server"; $(call swift_test,Tests-Integration,1200)
	@"$(CURDIR)/Tests-Integration/Scripts/schemathesis.sh" "$(BIN)/tokens-server" 25 1
	@# A second run from a new seed each time (printed, to replay): a fixed seed never meets
	@# what it did not meet once.
	@"$(CURDIR)/Tests-Integration/Scripts/schemathesis.sh" "$(BIN)/tokens-server" 25 $$RANDOM

server: deps ## Start tokens-server --phase dev on 127.0.0.1:8787 (in memory; try curl localhost:8787/v1/health)
	@$(SWIFT) build --package-path App --product tokens-server $(BUILD_FLAGS)
	@"$(BIN)/tokens-server" --phase dev

check-architecture: ## Check the architecture rules (ArchUnit-style report)
	@echo "== architecture rules ($(STAMP))"
	@$(SWIFT) build --package-path Tests-Integration --product archcheck $(BUILD_FLAGS)
	@"$(BIN)/archcheck" --root "$(CURDIR)"
	@"$(CURDIR)/Tests-Integration/Scripts/check-workflows.sh"
	@echo "== rule 10: every package builds with --explicit-target-dependency-import-check error ($(STAMP))"
	@[ -z "$(strip $(IMPORT_CHECKED))" ] || echo "   built with it earlier in this run: $(strip $(IMPORT_CHECKED))"
	@"$(BIN)/archcheck" --root "$(CURDIR)" --build-check --built "$(strip $(IMPORT_CHECKED))" --scratch-path "$(SCRATCH)" \
	  -- $(SWIFTPM_FLAGS) $(SWIFTC_FLAGS)

stress: deps-test ## The sync lifecycle model check (10 000 histories in memory, 300 on tokens-server), the SIGKILL durability test with many more trials (TRIALS=500, a new SEED each run); 8 pushers on two server processes for SCALE_OUT=30 s; the primary's failover FAILOVERS=10 times
	@$(MAKE) --no-print-directory model-check SEED=
	@$(MAKE) --no-print-directory model-check-server SEED=
	@$(SWIFT) build --package-path App --product tokens $(BUILD_FLAGS)
	@$(SWIFT) build --package-path App --product tokens-server $(BUILD_FLAGS)
	@export TOKENS_BIN="$(BIN)/tokens" TOKENS_KILL_TRIALS=$${TRIALS:-500} TOKENS_KILL_SEED=$${SEED:-$$RANDOM$$RANDOM}; \
	  echo "== $$TOKENS_KILL_TRIALS kill trials, seed $$TOKENS_KILL_SEED (replay: make stress SEED=$$TOKENS_KILL_SEED)"; \
	  $(call swift_test,Tests-Integration,7200,--filter killDuringWrites)
	@echo "== 8 pushers and a puller on two tokens-server processes for $${SCALE_OUT:-30} s"
	@$(WITH_POSTGRES) env TOKENS_SERVER_BIN="$(BIN)/tokens-server" TOKENS_SCALE_OUT_SECONDS=$${SCALE_OUT:-30} \
	  "$(WATCHDOG)" 600 $(SWIFT) test --package-path Tests-Integration $(BUILD_FLAGS) --skip-build --filter pushersAndPullerOnTwoProcesses
	@echo "== the primary killed and its standby promoted under pushes, $${FAILOVERS:-10} times"
	@export TOKENS_SERVER_BIN="$(BIN)/tokens-server"; for round in $$(seq $${FAILOVERS:-10}); do \
	  echo "-- failover $$round"; \
	  $(WITH_POSTGRES) "$(WATCHDOG)" 600 $(SWIFT) test --package-path Tests-Integration $(BUILD_FLAGS) --skip-build \
	    --filter ServerFailoverTests || exit 1; done

# The sync lifecycle model check (Data's LifecycleModelCheckTests): HISTORIES random histories
# from a new seed, or with SEED=N the one history of that seed (the failure report names it).
model-check: deps-test ## The sync lifecycle model check: HISTORIES=10000 histories from a new seed; SEED=N replays one
	@$(SWIFT) build --package-path Data --build-tests $(BUILD_FLAGS)
	@if [ -n "$(SEED)" ]; then export TOKENS_MODEL_REPLAY="$(SEED)"; \
	  else export TOKENS_MODEL_HISTORIES=$${HISTORIES:-10000} TOKENS_MODEL_SEED=$$RANDOM$$RANDOM; fi; \
	  export SWIFT_DETERMINISTIC_HASHING=1; \
	  "$(WATCHDOG)" 7200 $(SWIFT) test --package-path Data $(BUILD_FLAGS) --skip-build --filter LifecycleModelCheckTests

# Its smaller run against the real tokens-server on PostgreSQL over HTTP (Tests-Integration's
# ServerModelCheckTests; about a second a history): HISTORIES from a new seed, or SEED=N.
model-check-server: deps-test ## The model check on tokens-server and PostgreSQL: HISTORIES=300 histories from a new seed; SEED=N replays one
	@$(SWIFT) build --package-path App --product tokens-server $(BUILD_FLAGS)
	@$(SWIFT) build --package-path Tests-Integration --build-tests $(BUILD_FLAGS)
	@if [ -n "$(SEED)" ]; then export TOKENS_MODEL_SERVER_REPLAY="$(SEED)"; \
	  else export TOKENS_MODEL_SERVER_HISTORIES=$${HISTORIES:-300} TOKENS_MODEL_SERVER_SEED=$$RANDOM$$RANDOM; fi; \
	  export TOKENS_SERVER_BIN="$(BIN)/tokens-server"; \
	  $(WITH_POSTGRES) "$(WATCHDOG)" 3600 $(SWIFT) test --package-path Tests-Integration $(BUILD_FLAGS) --skip-build --filter ServerModelCheckTests

RELEASE_SCRATCH ?= $(CURDIR)/.build-release
# A fully static executable; concrete generic types' metadata comes from accessor functions, not
# from mangled names that the runtime would check against every conformance in the binary
# (faster start-up; see PERFORMANCE.md).
# ICU's data is linked for the root and English locales only (App/Scripts/icu-data-subset.py writes
# the linker flags that swap it in; 6 MB instead of 34).
ICU_DATA := $(RELEASE_SCRATCH)/icu
# Linked by lld, every function in a section of its own, the functions a start runs first and
# together, then the variables it writes and reads (App/Release/hot-symbols.order, written by
# `make order-file`): a start then touches a few hundred KB of code instead of pages all over
# 33 MB, and writes fewer pages of data (see PERFORMANCE.md).
# lld comes with Swift's toolchains for Linux; where it does not (a distribution's own Swift), the
# default linker links the release without the order.
HOT_SYMBOLS := $(CURDIR)/App/Release/hot-symbols.order
LLD_FOUND := $(shell swiftc="$$(command -v $(SWIFT)c)"; { [ -n "$$swiftc" ] && [ -x "$$(dirname "$$(readlink -f "$$swiftc")")/ld.lld" ]; } || command -v ld.lld >/dev/null && echo yes)
LINK_ORDER := $(if $(LLD_FOUND),-Xswiftc -use-ld=lld -Xlinker --symbol-ordering-file=$(HOT_SYMBOLS) -Xlinker --no-warn-symbol-ordering)
RELEASE_FLAGS := -c release --static-swift-stdlib -Xswiftc -static-executable \
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
  -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections $(LINK_ORDER) \
  -Xlinker @$(ICU_DATA)/link-flags --scratch-path $(RELEASE_SCRATCH) $(SWIFTPM_FLAGS)
# Asked of SwiftPM once per make, when first used (the release recipe reads it twice).
RELEASE_BIN = $(eval RELEASE_BIN := $(shell $(SWIFT) build --package-path App $(RELEASE_FLAGS) --show-bin-path))$(RELEASE_BIN)

bench: deps-test ## Measure against oathtool, keepassxc-cli, hashlib.scrypt and the goals, sync included (release build); writes bench/results.json
	@$(call install-missing,oathtool hyperfine keepassxc)
	@# The installed binary (stripped) is what is measured: what a user runs.
	@$(MAKE) --no-print-directory release
	@# Right after App was built in the same scratch folder, SwiftPM can report "No target named
	@# 'tokens-bench…' in build description" once; the second build plans afresh.
	@$(SWIFT) build --package-path Tests-Integration --product tokens-bench $(RELEASE_FLAGS) || \
	  $(SWIFT) build --package-path Tests-Integration --product tokens-bench $(RELEASE_FLAGS)
	@# The sync rows run the installed tokens against the release server (built as loadtest builds it).
	@$(SWIFT) build $(SERVER_RELEASE)
	@# Copied by install(1) as `make install` does: strip writes the staged file in one go, and
	@# Linux keeps such a file in large page-cache folios, so its every start takes half the page
	@# faults of an installed copy (or of any binary read back from disk after a reboot).
	@bin=$$(mktemp -d); trap 'rm -rf "$$bin"' EXIT; install -m 755 "$(STAGE)/bin/tokens" "$$bin/tokens"; \
	  "$(RELEASE_BIN)/tokens-bench" --tokens "$$bin/tokens" --server "$$($(SWIFT) build $(SERVER_RELEASE) --show-bin-path)/tokens-server" \
	    --output bench/results.json

# The sync server as its operators build it (`swift build -c release`), in a scratch folder of
# its own (the static flags above would rebuild every module of the other).
SERVER_SCRATCH ?= $(CURDIR)/.build-release-server
SERVER_RELEASE := --package-path App --product tokens-server -c release --scratch-path $(SERVER_SCRATCH) $(SWIFTPM_FLAGS)

loadtest: deps-test ## The release tokens-server under wrk against pgbench running its SQL, on a PostgreSQL it starts; writes bench/sync-results.json (DURATION=10 ROUNDS=3 SOAK=300 CONNECTIONS=8 ENTRIES=20 an account)
	@$(SWIFT) build $(SERVER_RELEASE)
	@$(SWIFT) build --package-path Tests-Integration --product tokens-loadtest $(BUILD_FLAGS)
	@server="$$($(SWIFT) build $(SERVER_RELEASE) --show-bin-path)/tokens-server"; \
	  $(WITH_POSTGRES) "$(BIN)/tokens-loadtest" --server "$$server" --seconds $${DURATION:-10} --rounds $${ROUNDS:-3} \
	    --soak-seconds $${SOAK:-300} --connections $${CONNECTIONS:-8} --entries $${ENTRIES:-20} --output bench/sync-results.json

# Installation: a fully static release `tokens`, its completions and man page.
PREFIX ?= $(HOME)/.local
STAGE := $(RELEASE_SCRATCH)/stage
# The installed binary is stripped, as Linux distributions ship theirs (about 70 MB instead of
# 125). DEBUG_SYMBOLS=1 keeps its symbols and debug information, for gdb, perf or a crash report.
DEBUG_SYMBOLS ?= 0

release: deps ## Build the release tokens (a fully static executable), completions and man page into a staging folder
	@python3 App/Scripts/icu-data-subset.py --output-dir "$(ICU_DATA)"
	@# SwiftPM does not see the order file change: a link older than it is made again.
	@bin="$(RELEASE_BIN)"; if [ "$(HOT_SYMBOLS)" -nt "$$bin/tokens" ]; then rm -f "$$bin/tokens"; fi
	@$(SWIFT) build --package-path App --product tokens $(RELEASE_FLAGS)
	@bin="$(RELEASE_BIN)"; \
	  rm -rf "$(STAGE)"; \
	  mkdir -p "$(STAGE)/bin" "$(STAGE)/share/man/man1" "$(STAGE)/share/bash-completion/completions" \
	    "$(STAGE)/share/zsh/site-functions" "$(STAGE)/share/fish/vendor_completions.d"; \
	  if [ "$(DEBUG_SYMBOLS)" = 1 ]; then cp "$$bin/tokens" "$(STAGE)/bin/tokens"; \
	  else strip --strip-all -o "$(STAGE)/bin/tokens" "$$bin/tokens"; fi; \
	  "$$bin/tokens" --generate-completion-script bash >"$(STAGE)/share/bash-completion/completions/tokens"; \
	  "$$bin/tokens" --generate-completion-script zsh >"$(STAGE)/share/zsh/site-functions/_tokens"; \
	  "$$bin/tokens" --generate-completion-script fish >"$(STAGE)/share/fish/vendor_completions.d/tokens.fish"; \
	  "$$bin/tokens" _manual >"$(STAGE)/share/man/man1/tokens.1"

order-file: deps ## Write App/Release/hot-symbols.order, the functions a start of the release tokens runs (callgrind) and the variables it touches (lackey), for its link
	@$(call install-missing,valgrind)
	@$(MAKE) --no-print-directory release
	@python3 App/Scripts/hot-symbols.py --binary "$(RELEASE_BIN)/tokens" --output "$(HOT_SYMBOLS)"

# $(call build-unless-sudo,RELEASE TARGET,STAGED FILE): make RELEASE TARGET, except under sudo,
# where nothing is built (a build as root would leave files the user cannot remove in the
# checkout): then the user's staged build is installed, or the command says how to make one.
build-unless-sudo = if [ -z "$${SUDO_USER:-}" ] && command -v $(SWIFT) >/dev/null; then $(MAKE) --no-print-directory $(1); \
	  elif [ ! -x "$(2)" ]; then \
	    echo "nothing built to install: run 'make $(1)' as yourself first, then 'sudo make $(1:release%=install%)'"; exit 1; fi

install: ## Install tokens (stripped; DEBUG_SYMBOLS=1 keeps them), its completions, man page and backup timer (systemd user units) under PREFIX (default ~/.local)
	@$(call build-unless-sudo,release,$(STAGE)/bin/tokens)
	@# Staged outside the checkout, with the backup units pointing at PREFIX/bin/tokens: under
	@# sudo, nothing root owns is left in the user's tree.
	@files=$$(mktemp -d); trap 'rm -rf "$$files"' EXIT; \
	  cp -R "$(STAGE)" "$$files/stage" && App/Scripts/stage-user-units.sh "$$files/stage" "$(PREFIX)" && \
	  echo "installing into $(DESTDIR)$(PREFIX):" && \
	  App/Scripts/install.sh install "$$files/stage" "$(DESTDIR)$(PREFIX)"
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) echo "note: $(PREFIX)/bin is not on your PATH";; esac

uninstall: ## Remove exactly what make install put under PREFIX
	@App/Scripts/install.sh uninstall "$(DESTDIR)$(PREFIX)"

# The server as its operators install it: release, static and stripped like tokens, with the
# example systemd unit (its ExecStart pointing at PREFIX/bin). Build as yourself, install as root:
# make release-server, then sudo make install-server PREFIX=/usr/local.
SERVER_STAGE := $(RELEASE_SCRATCH)/stage-server
release-server: deps ## Build the release tokens-server (a fully static executable) for make install-server
	@python3 App/Scripts/icu-data-subset.py --output-dir "$(ICU_DATA)"
	@$(SWIFT) build --package-path App --product tokens-server $(RELEASE_FLAGS)
	@mkdir -p "$(SERVER_STAGE)" && cp "$(RELEASE_BIN)/tokens-server" "$(SERVER_STAGE)/tokens-server.built"

install-server: ## Install tokens-server (stripped; DEBUG_SYMBOLS=1 keeps them) and its systemd unit under PREFIX
	@$(call build-unless-sudo,release-server,$(SERVER_STAGE)/tokens-server.built)
	@# Staged outside the checkout: under sudo, nothing root owns is left in the user's tree.
	@files=$$(mktemp -d); trap 'rm -rf "$$files"' EXIT; \
	  DEBUG_SYMBOLS=$(DEBUG_SYMBOLS) App/Scripts/stage-server.sh "$(SERVER_STAGE)/tokens-server.built" "$$files/stage" "$(PREFIX)"; \
	  echo "installing into $(DESTDIR)$(PREFIX):"; \
	  PRODUCT=tokens-server App/Scripts/install.sh install "$$files/stage" "$(DESTDIR)$(PREFIX)"
	@echo "then: systemctl daemon-reload, and the database URL in /etc/tokens-server.env (App/Deploy/README.md)"

uninstall-server: ## Remove exactly what make install-server put under PREFIX
	@PRODUCT=tokens-server App/Scripts/install.sh uninstall "$(DESTDIR)$(PREFIX)"

# Installs into a temporary prefix, runs the installed binary with the toolchain's runtime
# folders hidden (InstallTests), then uninstalls and checks nothing is left.
test-install:
	@echo "== install test ($(STAMP))"
	@$(SWIFT) build --package-path App --product tokens $(BUILD_FLAGS)
	@$(SWIFT) build --package-path App --product tokens-server $(BUILD_FLAGS)
	@$(SWIFT) build --package-path Tests-Integration --build-tests $(BUILD_FLAGS)
	@# The binaries are named: without TOKENS_SERVER_BIN a test would build App afresh in its own
	@# .build, inside the watchdog's limit (a build that a busy machine does not finish in time).
	@root=$$(mktemp -d); trap 'rm -rf "$$root"' EXIT; \
	  env -u SUDO_USER $(MAKE) --no-print-directory install PREFIX="$$root/prefix" >/dev/null; \
	  export TOKENS_INSTALL_PREFIX="$$root/prefix" TOKENS_BIN="$(BIN)/tokens" TOKENS_SERVER_BIN="$(BIN)/tokens-server"; \
	  "$(WATCHDOG)" 600 $(SWIFT) test --package-path Tests-Integration $(BUILD_FLAGS) --skip-build --filter InstallTests

# The operator's guide's systemd steps (App/Deploy/README.md) under a real systemd: Debian 12
# booted in a container (systemd-nspawn, a network namespace of its own), fetched into
# SYSTEMD_ROOTFS on the first run and kept. Root is needed to boot it: through sudo unless root.
SYSTEMD_ROOTFS ?= /var/lib/machines/tokens-guide
test-systemd: deps-test ## The operator's guide under systemd: enable --now, readiness, reload, admin, two machines syncing, a boot (a container; sudo)
	@echo "== systemd test ($(STAMP))"
	@$(SWIFT) build --package-path App --product tokens $(BUILD_FLAGS)
	@$(SWIFT) build --package-path App --product tokens-server $(BUILD_FLAGS)
	@SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  timeout 1800 $$SUDO App/Scripts/systemd-guide.sh "$(BIN)/tokens-server" "$(BIN)/tokens" "$(SYSTEMD_ROOTFS)"

fuzz: deps-test ## Feed every import parser mutated inputs (ITERATIONS=100000 per format), then schemathesis against tokens-server (EXAMPLES=500 per operation, a new SEED)
	@export TOKENS_FUZZ_ITERATIONS=$${ITERATIONS:-100000}; $(call swift_test,Data,7200,--filter InteropRobustnessTests)
	@$(SWIFT) build --package-path App --product tokens-server $(BUILD_FLAGS)
	@"$(CURDIR)/Tests-Integration/Scripts/schemathesis.sh" "$(BIN)/tokens-server" $${EXAMPLES:-500} $${SEED:-$$RANDOM}

proto: ## Regenerate the committed protobuf code (needs protoc and protoc-gen-swift on PATH; not needed to build)
	protoc --swift_out=Data/Sources/DataLayer/Interop/Google --proto_path=Data/Proto Data/Proto/google_auth_migration.proto

# The sync API: one OpenAPI document (Domain/OpenAPI/sync-api.yaml); the server's code generated
# from it is committed, with the document itself embedded for GET /v1/openapi.yaml. A test fails
# when the embedded copy differs from the document, i.e. when the document changed without this.
OPENAPI_GENERATOR ?= swift-openapi-generator
OPENAPI_DOC := Domain/OpenAPI/sync-api.yaml
OPENAPI_SERVER := Presentation/Sources/SyncServerHTTP/Generated
OPENAPI_CLIENT := Data/Sources/SyncRemoteData/Generated
openapi: ## Regenerate the committed OpenAPI code, server and client (needs swift-openapi-generator 1.14 on PATH, or OPENAPI_GENERATOR=path; not needed to build)
	$(OPENAPI_GENERATOR) generate --config $(OPENAPI_SERVER)/openapi-generator-config.yaml --output-directory $(OPENAPI_SERVER) $(OPENAPI_DOC)
	$(OPENAPI_GENERATOR) generate --config $(OPENAPI_CLIENT)/openapi-generator-config.yaml --output-directory $(OPENAPI_CLIENT) $(OPENAPI_DOC)
	@{ echo '// Generated by `make openapi` from $(OPENAPI_DOC); do not edit.'; \
	  echo ''; echo '/// The API document this server implements, served at GET /v1/openapi.yaml.'; \
	  echo 'let apiDocument = #"""'; cat $(OPENAPI_DOC); echo '"""#'; } > $(OPENAPI_SERVER)/APIDocument.swift

# Our own Swift files: generated code (OpenAPI, protobuf) and the rules' fixtures are left as they are.
FORMAT_FILES = $(shell git ls-files --cached --others --exclude-standard -- '*.swift' | \
  grep -v -e '/Generated/' -e '\.pb\.swift$$' -e '^Tests-Integration/Fixtures/')

format: ## Format our Swift code with the toolchain's swift format (.swift-format)
	@$(SWIFT) format format --in-place --configuration .swift-format $(FORMAT_FILES)

check-format: ## Fail on code that make format would change or that breaks a lint rule of .swift-format
	@echo "== format ($(STAMP))"
	@$(SWIFT) format lint --strict --configuration .swift-format $(FORMAT_FILES)

workflows: ## Regenerate the GitHub Actions workflows (.github/workflows) from the manifests
	@$(SWIFT) build --package-path Tests-Integration --product archcheck $(BUILD_FLAGS)
	@"$(BIN)/archcheck" --root "$(CURDIR)" --write-workflows

graph: ## Regenerate the module graph in ARCHITECTURE.md from the manifests
	@$(SWIFT) build --package-path Tests-Integration --product archcheck $(BUILD_FLAGS)
	@"$(BIN)/archcheck" --root "$(CURDIR)" --write-graph

clean: ## Remove build folders
	rm -rf $(SCRATCH) $(RELEASE_SCRATCH) $(addsuffix /.build,$(PACKAGES))
