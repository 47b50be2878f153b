-- (varied-get) WordPress page views where every request differs: post pages with campaign and click-id query
-- values, paged archives, searches (?s=), shop pages, REST reads under /wp-json/, and the static assets a page loads
-- (?ver=), each from a new visitor (varied-visitor.lua). Needs varied-random, varied-site and varied-visitor before it.

-- What a shared link adds to a post URL: utm_* from a newsletter or a social post, or an ad/social click id.
local function campaign_query()
  local r = rng() % 10
  if r < 3 then return "" end
  if r < 6 then
    local source = pick({ "newsletter", "facebook", "instagram", "pinterest", "twitter", "linkedin", "mailchimp" })
    local medium = source == "newsletter" and "email" or pick({ "social", "paid_social", "referral" })
    local q = "?utm_source=" .. source .. "&utm_medium=" .. medium .. "&utm_campaign=" ..
      pick({ "may_digest", "spring_sale", "weekly", "summer_recipes", "black_friday", "seed_swap" }) .. "_" .. rand_int(2019, 2024)
    if chance(0.5) then q = q .. "&utm_content=" .. pick({ "header", "button", "image", "text_link" }) .. "_" .. rand_int(1, 99) end
    if chance(0.2) then q = q .. "&utm_term=" .. urlencode(search_words(1, 3)) end
    return q
  end
  if r < 8 then return "?fbclid=IwAR" .. rand_token(rand_int(56, 64)) end
  return "?gclid=Cj0KCQjw" .. rand_token(rand_int(70, 84)) .. "&gad_source=1"
end

local function page_view()   -- -> path, referer
  local r = rng() % 100
  if r < 50 then return post_path() .. campaign_query(), chance(0.6) and external_referer() or nil end
  if r < 65 then
    local p = pick({ "/category/" .. pick(CATEGORIES) .. "/", "/tag/" .. pick(WORDS) .. "/", "/blog/" })
    local n = rand_int(2, 60)
    return p .. "page/" .. n .. "/", SITE .. p .. (n > 2 and ("page/" .. (n - 1) .. "/") or "")
  end
  if r < 80 then
    local q = "/?s=" .. urlencode(search_words(2, 4))
    if chance(0.3) then q = q .. "&post_type=product" end
    return q, SITE .. post_path()
  end
  if r < 90 then return product_path() .. (chance(0.3) and campaign_query() or ""), SITE .. "/shop/" end
  local q = "/product-category/" .. pick(PRODUCT_CATEGORIES) .. "/?orderby=" ..
    pick({ "popularity", "rating", "date", "price", "price-desc" }) .. "&paged=" .. rand_int(1, 30)
  if chance(0.6) then q = q .. "&min_price=" .. rand_int(0, 40) .. "&max_price=" .. rand_int(41, 400) end
  return q, SITE .. "/shop/"
end

local function rest_read()
  local r = rng() % 5
  if r == 0 then return "/wp-json/wp/v2/posts?per_page=" .. pick({ 5, 10, 12, 20 }) .. "&page=" .. rand_int(1, 80) ..
    "&categories=" .. rand_int(2, 60) .. "&_embed=1" end
  if r == 1 then return "/wp-json/wp/v2/comments?post=" .. rand_int(10, 9000) .. "&per_page=50&orderby=date_gmt" end
  if r == 2 then return "/wp-json/wp/v2/search?search=" .. urlencode(search_words(2, 4)) .. "&type=post&per_page=5" end
  if r == 3 then return "/wp-json/wc/store/v1/products?per_page=" .. pick({ 8, 12, 24 }) .. "&page=" .. rand_int(1, 40) ..
    "&category=" .. rand_int(15, 60) end
  return "/wp-json/wp/v2/posts/" .. rand_int(10, 9000) .. "?_fields=id,title,link,excerpt"
end

local THEME_ASSETS = {
  { "/wp-content/themes/kadence/style.css?ver=1.1.%d", "style" },
  { "/wp-includes/css/dist/block-library/style.min.css?ver=6.4.%d", "style" },
  { "/wp-content/plugins/woocommerce/assets/css/woocommerce.css?ver=8.%d.1", "style" },
  { "/wp-includes/js/jquery/jquery.min.js?ver=3.7.%d", "script" },
  { "/wp-content/plugins/woocommerce/assets/js/frontend/cart-fragments.min.js?ver=8.%d.1", "script" },
  { "/wp-content/plugins/contact-form-7/includes/js/index.js?ver=5.8.%d", "script" },
  { "/wp-includes/js/comment-reply.min.js?ver=6.4.%d", "script" },
}
local function asset()   -- -> path, kind: a theme/plugin file (few versions) or an uploaded image (many)
  if chance(0.55) then return upload_path(pick({ "jpg", "jpg", "webp", "png" })), "image" end
  local a = pick(THEME_ASSETS)
  return a[1]:format(rand_int(0, 5)), a[2]
end

function request()
  request_counter = request_counter + 1
  local r = rng() % 100
  local path, kind, referer, opts = nil, "document", nil, {}
  if r < 55 then
    path, referer = page_view()
  elseif r < 67 then
    path, kind, referer = rest_read(), "json", SITE .. post_path()
  else
    path, kind = asset(); referer = SITE .. post_path()
  end
  opts.logged_in = chance(0.08)
  opts.shopper = chance(0.2)
  opts.facebook = referer ~= nil and referer:find("facebook", 1, true) ~= nil
  return wrk.format("GET", path, visitor_headers(kind, referer, opts))
end
