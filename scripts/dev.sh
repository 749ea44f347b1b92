#!/usr/bin/env bash
# `make dev`: live-reloading development with cargo-leptos (installed pinned on first use).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$ROOT"
ensure_wasm_target
ensure_wasm_bindgen
ensure_npm_packages
ensure_cargo_leptos
exec cargo leptos watch "$@"
