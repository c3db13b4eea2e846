# Chromium for the browser checks, sourced by scripts/test and
# scripts/screenshot: `ensure_chromium` sets $chrome to a Chromium on PATH,
# installing Debian's chromium and chromium-driver (or Fedora's chromium)
# with the system package manager when there is none (as root, or through
# sudo), and `chrome_flags` holds the flags that run it headless on a
# machine without a display, a sandbox or a network.

find_chromium() {
  for c in chromium chromium-browser google-chrome-stable google-chrome; do
    if command -v "$c" >/dev/null 2>&1; then
      command -v "$c"
      return 0
    fi
  done
  return 1
}

ensure_chromium() {
  if chrome=$(find_chromium); then
    return 0
  fi
  local sudo=""
  if [[ $(id -u) -ne 0 ]]; then
    sudo="sudo"
  fi
  echo "== installing Chromium with the system package manager"
  if command -v apt-get >/dev/null 2>&1; then
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
      chromium chromium-driver fonts-dejavu-core >/dev/null
  elif command -v dnf >/dev/null 2>&1; then
    $sudo dnf install -y -q chromium chromedriver
  else
    echo "no chromium and no apt-get or dnf to install it with" >&2
    return 1
  fi
  chrome=$(find_chromium)
}

# Headless as root in a container: no sandbox, no GPU, and none of the
# background connections (updates, sync, QUIC) a closed network refuses.
chrome_flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
  --disable-background-networking --disable-component-update --disable-sync)
