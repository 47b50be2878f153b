-- Who sends a varied request: a browser shape (user agent with its own client hints and Accept headers), a cookie jar
-- (Google Analytics ids, and for some visitors a WordPress login or a WooCommerce cart), and where they came from.
-- Needs varied-random.lua before it. Every visitor is new: versions, ids and timestamps are drawn per request.
local SITE = "https://www.example.com"
local SITE_HASH = "5d41402abc4b2a76b9719d911017c592"   -- md5 of the site URL: the suffix of WordPress's cookie names
local GA_CONTAINER = "Q1W2E3R4T5"

-- Browser shapes seen on WordPress sites; %d are version numbers drawn per visitor.
local BROWSERS = {
  { ua = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%d.0.0.0 Safari/537.36",
    brand = "Google Chrome", platform = '"Windows"', mobile = "?0", lo = 118, hi = 125 },
  { ua = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%d.0.0.0 Safari/537.36",
    brand = "Google Chrome", platform = '"macOS"', mobile = "?0", lo = 118, hi = 125 },
  { ua = "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%d.0.0.0 Mobile Safari/537.36",
    brand = "Google Chrome", platform = '"Android"', mobile = "?1", lo = 118, hi = 125 },
  { ua = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%d.0.0.0 Safari/537.36 Edg/%d.0.0.0",
    brand = "Microsoft Edge", platform = '"Windows"', mobile = "?0", lo = 118, hi = 124 },
  { ua = "Mozilla/5.0 (Linux; Android 13; SAMSUNG SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/%d.0 Chrome/115.0.0.0 Mobile Safari/537.36",
    brand = "Samsung Internet", platform = '"Android"', mobile = "?1", lo = 22, hi = 25 },
  { ua = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:%d.0) Gecko/20100101 Firefox/%d.0", lo = 115, hi = 126 },
  { ua = "Mozilla/5.0 (X11; Linux x86_64; rv:%d.0) Gecko/20100101 Firefox/%d.0", lo = 115, hi = 126 },
  { ua = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/%d.%d Safari/605.1.15",
    lo = 16, hi = 17, minor = true },
  { ua = "Mozilla/5.0 (iPhone; CPU iPhone OS %d_%d like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
    lo = 16, hi = 17, minor = true },
}
local LANGUAGES = { "en-US,en;q=0.9", "en-GB,en;q=0.9", "en-US,en;q=0.9,de;q=0.8", "de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7",
  "fr-FR,fr;q=0.9,en;q=0.8", "nl-NL,nl;q=0.9,en;q=0.8", "es-ES,es;q=0.9", "en-AU,en;q=0.9" }
local ACCEPT = {
  document = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8",
  style = "text/css,*/*;q=0.1", script = "*/*", image = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8",
  json = "application/json, */*;q=0.1", form = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  ajax = "*/*",
}
local FETCH = { document = { "document", "navigate" }, style = { "style", "no-cors" }, script = { "script", "no-cors" },
  image = { "image", "no-cors" }, json = { "empty", "cors" }, form = { "document", "navigate" }, ajax = { "empty", "cors" } }

local EXTERNAL_REFERERS = { "https://www.google.com/", "https://www.google.de/", "https://www.bing.com/",
  "https://duckduckgo.com/", "https://l.facebook.com/", "https://m.facebook.com/", "https://www.pinterest.com/",
  "https://www.reddit.com/", "https://news.ycombinator.com/", "android-app://com.google.android.gm/" }

-- The page a visitor was on before (internal referer); set by the mix so assets name the page that loaded them.
local function external_referer()
  local r = pick(EXTERNAL_REFERERS)
  if r == "https://l.facebook.com/" then r = r .. "l.php?u=" .. urlencode(SITE .. "/") .. "&h=AT" .. rand_token(24) end
  if chance(0.15) then r = "https://t.co/" .. rand_token(10) end
  return r
end

local function browser_headers(kind)
  local b = pick(BROWSERS)
  local v1 = rand_int(b.lo, b.hi)
  -- The second number is the same major (Firefox's rv:, Edge's Edg/) or, for Safari and iOS, a minor version.
  local ua = b.ua:format(v1, b.minor and rand_int(0, 6) or v1)
  local h = {
    ["Host"] = "www.example.com", ["User-Agent"] = ua, ["Accept"] = ACCEPT[kind],
    ["Accept-Language"] = pick(LANGUAGES), ["Accept-Encoding"] = "gzip, deflate, br",
  }
  if b.brand then   -- Chromium browsers send client hints
    h["Sec-Ch-Ua"] = string.format('"Chromium";v="%d", "%s";v="%d", "Not-A.Brand";v="99"', v1, b.brand, v1)
    h["Sec-Ch-Ua-Mobile"] = b.mobile
    h["Sec-Ch-Ua-Platform"] = b.platform
  end
  local f = FETCH[kind]
  h["Sec-Fetch-Dest"], h["Sec-Fetch-Mode"] = f[1], f[2]
  if kind == "document" or kind == "form" then h["Upgrade-Insecure-Requests"] = "1"; h["Sec-Fetch-User"] = "?1" end
  return h
end

-- The cookie jar. The _ga_ hit timestamp carries the thread and request counter, so no two requests of a run share
-- a Cookie header (and so no two requests are equal), as _ga_'s real "last hit" second nearly never repeats.
local function cookie_jar(opts)
  local first_seen = BASE_TIME - rand_int(0, 400 * 86400)
  local session = BASE_TIME + rand_int(0, 30 * 86400)
  local last_hit = BASE_TIME + 40 * 86400 + request_counter * 64 + (thread_index or 0)
  local c = {
    "_ga=GA1.1." .. rand_digits(10) .. "." .. first_seen,
    "_ga_" .. GA_CONTAINER .. "=GS1.1." .. session .. "." .. rand_int(1, 40) .. ".1." .. last_hit .. ".0.0.0",
  }
  if chance(0.7) then c[#c + 1] = "_gid=GA1.2." .. rand_digits(9) .. "." .. session end
  if chance(0.3) then c[#c + 1] = "_gcl_au=1.1." .. rand_digits(10) .. "." .. session end
  if opts.facebook then c[#c + 1] = "_fbp=fb.1." .. session .. rand_int(100, 999) .. "." .. rand_digits(10) end
  if opts.logged_in then
    local user = pick({ "admin", "editor", "jane", "mark.t", "shopmanager" })
    local expiry = session + 14 * 86400
    c[#c + 1] = "wordpress_logged_in_" .. SITE_HASH .. "=" .. user .. "%7C" .. expiry .. "%7C" .. rand_token(43) .. "%7C" .. rand_hex(64)
    c[#c + 1] = "wp-settings-1=" .. pick({ "libraryContent%3Dbrowse%26editor%3Dtinymce",
      "editor%3Dhtml%26mfold%3Do%26posts_list_mode%3Dlist", "libraryContent%3Dupload%26hidetb%3D1" })
    c[#c + 1] = "wp-settings-time-1=" .. (session - rand_int(0, 86400))
    c[#c + 1] = "wordpress_test_cookie=WP%20Cookie%20check"
  end
  if opts.shopper then
    c[#c + 1] = "woocommerce_items_in_cart=1"
    c[#c + 1] = "woocommerce_cart_hash=" .. rand_hex(32)
    local customer = opts.logged_in and tostring(rand_int(2, 9000)) or ("t_" .. rand_hex(30))
    c[#c + 1] = "wp_woocommerce_session_" .. SITE_HASH .. "=" .. customer .. "%7C%7C" .. (session + 2 * 86400) ..
      "%7C%7C" .. (session + 86400) .. "%7C%7C" .. rand_hex(32)
  end
  if opts.commenter then
    c[#c + 1] = "comment_author_" .. SITE_HASH .. "=" .. urlencode(opts.commenter.name)
    c[#c + 1] = "comment_author_email_" .. SITE_HASH .. "=" .. urlencode(opts.commenter.email)
  end
  return table.concat(c, "; ")
end

-- A fresh header table for one request: kind picks Accept and Sec-Fetch-*, referer may be nil (typed or bookmarked).
local function visitor_headers(kind, referer, opts)
  local h = browser_headers(kind)
  if referer then h["Referer"] = referer end
  -- Sec-Fetch-Site as a browser sets it from where the request comes from.
  h["Sec-Fetch-Site"] = referer == nil and "none" or (referer:sub(1, #SITE) == SITE and "same-origin" or "cross-site")
  h["Cookie"] = cookie_jar(opts or {})
  return h
end
