# Shared by the scripts in this folder: paths, the tool folder, and installing pinned tools.
#
# Everything the project needs is installed from the package registries (crates.io, npm,
# Debian) into `.tools/` and `end2end/node_modules/` inside the clone; a tool already on PATH at
# the pinned version is used as it is.

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
export PATH="$TOOLS/bin:$ROOT/end2end/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

CARGO_LEPTOS_VERSION="0.3.10"
OUTPUT_NAME="pilot-desk"

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The wasm-bindgen version pinned in Cargo.lock; the CLI must match it exactly.
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock"
}

ensure_wasm_target() {
  if rustc --print target-libdir --target wasm32-unknown-unknown >/dev/null 2>&1 &&
    [ -d "$(rustc --print target-libdir --target wasm32-unknown-unknown)" ]; then
    return
  fi
  command -v rustup >/dev/null || die "the wasm32-unknown-unknown target is missing and rustup is not installed"
  say "Installing the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
}

ensure_wasm_bindgen() {
  local want have
  want="$(wasm_bindgen_version)"
  [ -n "$want" ] || die "no wasm-bindgen in Cargo.lock"
  have="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)"
  if [ "$have" = "$want" ]; then return; fi
  say "Installing wasm-bindgen-cli $want into .tools (about 9 minutes on 2 cores, once)"
  # Without --locked: its lockfile names a webpki-roots release some registry mirrors lack.
  cargo install wasm-bindgen-cli --version "$want" --root "$TOOLS"
}

ensure_npm_packages() {
  command -v npm >/dev/null || die "npm is required (Debian: apt-get install nodejs npm)"
  if [ ! -x "$ROOT/end2end/node_modules/.bin/playwright" ] || [ ! -x "$ROOT/end2end/node_modules/.bin/wasm-opt" ] ||
    [ "$ROOT/end2end/package-lock.json" -nt "$ROOT/end2end/node_modules/.package-lock.json" ]; then
    say "Installing the npm packages of end2end/ (Playwright, binaryen's wasm-opt)"
    (cd "$ROOT/end2end" && npm ci --no-audit --no-fund)
  fi
}

ensure_cargo_leptos() {
  if [ "$(cargo-leptos --version 2>/dev/null | awk '{print $2}' || true)" = "$CARGO_LEPTOS_VERSION" ]; then return; fi
  say "Installing cargo-leptos $CARGO_LEPTOS_VERSION into .tools (about 45 minutes on 2 cores, once)"
  cargo install cargo-leptos --version "$CARGO_LEPTOS_VERSION" --locked --root "$TOOLS"
}

chromium_path() {
  if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then echo "$CHROMIUM_PATH"; return; fi
  for candidate in /usr/bin/chromium /usr/bin/chromium-browser; do
    if [ -x "$candidate" ]; then echo "$candidate"; return; fi
  done
}

ensure_chromium() {
  local missing=()
  [ -n "$(chromium_path)" ] || missing+=(chromium)
  # pdftotext: the browser test reads the downloaded PDF report's text.
  command -v pdftotext >/dev/null || missing+=(poppler-utils)
  [ "${#missing[@]}" -gt 0 ] || return 0
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    say "Installing Debian's ${missing[*]} for the PDF report and the browser tests"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    die "Needed for the PDF report and the browser tests: apt-get install ${missing[*]} (as root), or set CHROMIUM_PATH"
  fi
}

# Writes Brotli and gzip copies beside every file of a bundle folder (the server answers with
# the one the browser accepts). Brotli comes from Node's zlib, so no extra tool is needed.
precompress() {
  local dir="$1" quality="$2"
  find "$dir" -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.css' \) | while read -r file; do
    gzip -9 -n -k -f "$file"
  done
  node -e '
    const fs = require("fs"), path = require("path"), zlib = require("zlib");
    const [dir, quality] = [process.argv[1], Number(process.argv[2])];
    const walk = (d) => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]);
    for (const file of walk(dir).filter((f) => /\.(wasm|js|css)$/.test(f))) {
      const data = fs.readFileSync(file);
      fs.writeFileSync(file + ".br", zlib.brotliCompressSync(data, { params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
    }' "$dir" "$quality"
}

# Builds the browser bundle and the stylesheet into target/site (what cargo-leptos would do),
# content-addressed: target/site/pkg/<hash>/{pilot-desk.js, pilot-desk.wasm, pilot-desk.css,
# snippets/} with .br/.gz copies, and target/site/pkg/current naming <hash> (see
# server/src/static_files.rs). $1: "debug" or "release" (optimised: what `make run` serves).
# The browser build type-erases components (`--cfg erase_components`): far less
# monomorphised view code in the wasm, the same HTML.
build_site() {
  local mode="$1" profile_dir cargo_profile=()
  if [ "$mode" = "release" ]; then
    cargo_profile=(--profile wasm-release)
    profile_dir="wasm-release"
  else
    profile_dir="debug"
  fi
  say "Building the browser bundle ($mode)"
  cargo build -p app --lib --target wasm32-unknown-unknown --no-default-features --features hydrate \
    --target-dir "$ROOT/target/front" "${cargo_profile[@]}"
  local site="$ROOT/target/site" out="$ROOT/target/site/pkg.tmp"
  rm -rf "$out" && mkdir -p "$out/bundle"
  wasm-bindgen --target web --no-typescript --out-name "$OUTPUT_NAME" --out-dir "$out/bundle" \
    "$ROOT/target/front/wasm32-unknown-unknown/$profile_dir/app.wasm"
  mv "$out/bundle/${OUTPUT_NAME}_bg.wasm" "$out/bundle/$OUTPUT_NAME.wasm"
  if [ "$mode" = "release" ]; then
    say "Optimising the wasm module (wasm-opt -Oz)"
    wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --strip-debug --strip-producers \
      "$out/bundle/$OUTPUT_NAME.wasm" -o "$out/bundle/$OUTPUT_NAME.opt.wasm"
    mv "$out/bundle/$OUTPUT_NAME.opt.wasm" "$out/bundle/$OUTPUT_NAME.wasm"
  fi
  cp "$ROOT/style/main.css" "$out/bundle/$OUTPUT_NAME.css"
  local hash
  hash="$(cd "$out/bundle" && find . -type f | LC_ALL=C sort | xargs cat | sha256sum | cut -c1-16)"
  mv "$out/bundle" "$out/$hash"
  echo "$hash" >"$out/current"
  if [ "$mode" = "release" ]; then
    say "Compressing the bundle (Brotli, gzip)"
    precompress "$out/$hash" 11
  fi
  rm -rf "$site/pkg" && mkdir -p "$site" && mv "$out" "$site/pkg"
  cp -R "$ROOT/public/." "$site/"
  if [ "$mode" = "release" ]; then
    say "Browser bundle: $(du -b "$site/pkg/$hash/$OUTPUT_NAME.wasm" | cut -f1) bytes of wasm, $(du -b "$site/pkg/$hash/$OUTPUT_NAME.wasm.br" | cut -f1) on the wire (Brotli)"
  fi
}

build_server() {
  local mode="$1"
  say "Building the server ($mode)"
  if [ "$mode" = "release" ]; then
    cargo build -p server --release
  else
    cargo build -p server
  fi
}

LITELLM_VERSION="1.108.7"

# LiteLLM's proxy (PyPI) in a virtual environment of its own under .tools/ (its pins conflict
# with schemathesis'), for the live gateway feed test of `make test`. 1.108.7 is the newest whose
# `[proxy]` extra installs from the registry alone.
ensure_litellm() {
  local venv="$TOOLS/venv-litellm"
  if [ "$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("litellm"))' 2>/dev/null || true)" = "$LITELLM_VERSION" ] &&
    [ -x "$venv/bin/litellm" ]; then
    return
  fi
  command -v python3 >/dev/null || die "python3 is required for the live gateway test (LiteLLM)"
  say "Installing LiteLLM $LITELLM_VERSION (proxy) into .tools/venv-litellm"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "litellm[proxy]==$LITELLM_VERSION"
}

SCHEMATHESIS_VERSION="4.32.5"

# schemathesis (PyPI) in a virtual environment of its own under .tools/, for the API contract
# check of `make test`.
ensure_schemathesis() {
  local venv="$TOOLS/venv"
  if [ "$("$venv/bin/schemathesis" --version 2>/dev/null | awk '{print $NF}' || true)" = "$SCHEMATHESIS_VERSION" ]; then
    return
  fi
  command -v python3 >/dev/null || die "python3 is required for the API contract check (schemathesis)"
  say "Installing schemathesis $SCHEMATHESIS_VERSION into .tools/venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
}

# Starts the server binary `$1` on a fresh demo database in the folder `$2` (created if
# missing), listening on 127.0.0.1:`$3` and serving target/site; any further arguments are
# extra environment (`RUST_LOG=warn`). Its output goes to `$2/server.log`. Waits up to a
# minute for /health; dies with the log when the server exits or never answers. Sets
# DEMO_SERVER_PID; stop_demo_server ends it.
start_demo_server() {
  local server="$1" data="$2" port="$3"
  shift 3
  mkdir -p "$data"
  env DATA_DIR="$data" LEPTOS_SITE_ADDR="127.0.0.1:$port" LEPTOS_SITE_ROOT="$ROOT/target/site" DEMO=1 "$@" \
    "$server" >"$data/server.log" 2>&1 &
  DEMO_SERVER_PID=$!
  for _ in $(seq 1 120); do
    curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && return 0
    kill -0 "$DEMO_SERVER_PID" 2>/dev/null || { cat "$data/server.log"; die "the server did not start"; }
    sleep 0.5
  done
  cat "$data/server.log"
  die "the server did not answer /health within a minute"
}

# Ends the server start_demo_server started, if it runs.
stop_demo_server() {
  if [ -n "${DEMO_SERVER_PID:-}" ]; then
    kill "$DEMO_SERVER_PID" 2>/dev/null || true
    wait "$DEMO_SERVER_PID" 2>/dev/null || true
  fi
  DEMO_SERVER_PID=""
}

# The first admin's password, which a server printed once at its first start into
# `$1/server.log`; dies with the log when there is none.
demo_admin_password() {
  local password
  password="$(sed -n 's/.*password: *\([A-Za-z0-9]\{20\}\).*/\1/p' "$1/server.log" | head -n 1)"
  [ -n "$password" ] || { cat "$1/server.log"; die "no admin password in the server's first-start output"; }
  echo "$password"
}
