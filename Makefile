# The two commands of the README, and a few for development.
.PHONY: run test dev lint release-size clean fuzz bench

run:          ## install what is missing, build, serve on http://127.0.0.1:3000
	@scripts/run.sh

test:         ## the whole suite: lints, unit, store/HTTP (SQLite, PostgreSQL if TEST_DATABASE_URL), browser
	@scripts/test.sh

dev:          ## live reload with cargo-leptos (installs the pinned version on first use)
	@scripts/dev.sh

lint:         ## formatting and clippy, also for the browser build
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy -p app --lib --target wasm32-unknown-unknown --no-default-features --features hydrate --target-dir target/front -- -D warnings

bench:        ## page latency at 32 clients; `server demand` vs pandas; the demo recommendation (optimised build)
	@scripts/bench.sh

fuzz:         ## fuzz every importer (fuzz/), 60 s each; `scripts/fuzz.sh [target] [seconds]` for one
	@scripts/fuzz.sh all $(or $(SECONDS_EACH),60)

clean:
	cargo clean
	rm -rf target/site
