-- (varied-post) WordPress form and AJAX POSTs where every request differs: comment form submissions to
-- /wp-comments-post.php (distinct names, emails, websites and comment texts, ~70 %) and admin-ajax / wc-ajax calls
-- (heartbeat, WooCommerce cart fragments and add-to-cart, a theme's "load more", ~30 %), each from a new visitor.
-- Needs varied-random, varied-site and varied-visitor before it.
local FIRST = { "Jane", "Mark", "Anna", "Tom", "Sofia", "Lukas", "Emma", "Noah", "Olivia", "Liam", "Mia", "Ben",
  "Chloe", "Jonas", "Grace", "Daniel", "Ella", "Finn", "Ruth", "Peter", "Hannah", "Sam", "Lea", "Oscar", "Ivy", "Max" }
local LAST = { "Doe", "Smith", "Meyer", "Jansen", "Rossi", "Novak", "Brown", "Fischer", "Dubois", "Kowalski",
  "Larsen", "Murphy", "Weber", "Silva", "Bakker", "Evans", "Young", "Hill", "Clarke", "Moreau", "Berg", "Walsh" }
local MAIL_DOMAINS = { "gmail.com", "outlook.com", "yahoo.co.uk", "gmx.de", "icloud.com", "proton.me", "web.de", "hotmail.fr" }
local CITIES = { "Leeds", "Bristol", "Utrecht", "Graz", "Portland", "Austin", "Ghent", "Aarhus", "Lyon", "Porto", "Cork" }
local ADJECTIVES = { "helpful", "lovely", "clear", "useful", "inspiring", "detailed", "practical", "wonderful" }
local SEASONS = { "spring", "summer", "autumn", "winter", "year" }
-- Sentence shapes of real blog comments; the slots are filled per comment.
local SENTENCES = {
  function() return "Thanks for this " .. pick(ADJECTIVES) .. " post about " .. pick(WORDS) .. " and " .. pick(WORDS) .. "." end,
  function() return "We tried the " .. pick(WORDS) .. " idea last " .. pick(SEASONS) .. " and the " .. pick(WORDS) .. " did much better than before." end,
  function() return "How often do you water the " .. pick(WORDS) .. " during the first " .. rand_int(2, 6) .. " weeks?" end,
  function() return "Our garden gets full sun from about " .. rand_int(7, 11) .. " in the morning until late afternoon." end,
  function() return "I will try this with " .. pick(WORDS) .. " next " .. pick(SEASONS) .. ", fingers crossed!" end,
  function() return "Do you have a recommendation for a " .. pick(WORDS) .. " mulch that does not attract slugs?" end,
  function() return "Great photos, the " .. pick(WORDS) .. " looks wonderful." end,
  function() return "Looking forward to the next post in the series." end,
  function() return "Best wishes from a fellow hobby gardener in " .. pick(CITIES) .. "!" end,
  function() return "I have been growing " .. pick(WORDS) .. " for " .. rand_int(2, 30) .. " years and never thought of this." end,
  function() return "My grandmother used to make " .. pick(WORDS) .. " " .. pick(WORDS) .. " every " .. pick(SEASONS) .. "." end,
  function() return "Would " .. pick(WORDS) .. " work in a north facing spot, or is it too shady there?" end,
  function() return "Step " .. rand_int(2, 9) .. " was a bit unclear to me: do you mean " .. rand_int(2, 5) .. " or " .. rand_int(6, 12) .. " cm deep?" end,
}

local function commenter()
  local first, last = pick(FIRST), pick(LAST)
  local email = first:lower() .. pick({ ".", "_", "" }) .. last:lower() .. (chance(0.5) and tostring(rand_int(1, 99)) or "") .. "@" .. pick(MAIL_DOMAINS)
  local url = chance(0.35) and ("https://" .. first:lower() .. last:lower() .. "." .. pick({ "com", "blog", "net", "co.uk", "de" }) .. "/") or ""
  return { name = first .. (chance(0.7) and (" " .. last) or ""), email = email, url = url }
end

local function comment_text()
  local s = {}
  for i = 1, rand_int(1, 6) do s[i] = pick(SENTENCES)() end
  return table.concat(s, " ")
end

local function comment_post(h, opts)   -- -> path, body
  local who = commenter()
  if chance(0.3) then opts.commenter = who end   -- a returning commenter: WordPress remembered the name and email
  local body = "comment=" .. urlencode(comment_text()) .. "&author=" .. urlencode(who.name) ..
    "&email=" .. urlencode(who.email) .. "&url=" .. urlencode(who.url) ..
    (chance(0.6) and "&wp-comment-cookies-consent=yes" or "") .. "&submit=" .. urlencode("Post Comment") ..
    "&comment_post_ID=" .. rand_int(10, 9000) .. "&comment_parent=" .. (chance(0.7) and "0" or tostring(rand_int(100, 90000))) ..
    "&akismet_comment_nonce=" .. rand_hex(10) .. "&ak_hp_textarea=&ak_js=" .. ((BASE_TIME + rand_int(0, 9999999)) * 1000 + rand_int(0, 999))
  h["Origin"] = SITE
  return "/wp-comments-post.php", body
end

local function ajax_post(h, opts)   -- -> path, body
  h["X-Requested-With"] = "XMLHttpRequest"
  h["Origin"] = SITE
  local r = rng() % 4
  if r == 0 then
    opts.logged_in = true
    return "/wp-admin/admin-ajax.php", "data%5Bwp-refresh-post-lock%5D%5Bpost_id%5D=" .. rand_int(10, 9000) ..
      "&data%5Bwp-refresh-post-lock%5D%5Block%5D=" .. (BASE_TIME + rand_int(0, 9999999)) .. "%3A" .. rand_int(1, 12) ..
      "&interval=" .. pick({ 15, 60, 120 }) .. "&_nonce=" .. rand_hex(10) .. "&action=heartbeat&screen_id=" ..
      pick({ "post", "edit-post", "dashboard", "product" }) .. "&has_focus=" .. pick({ "true", "false" })
  end
  if r == 1 then
    opts.shopper = true
    return "/?wc-ajax=get_refreshed_fragments", "time=" .. ((BASE_TIME + rand_int(0, 9999999)) * 1000 + rand_int(0, 999))
  end
  if r == 2 then
    opts.shopper = true
    return "/?wc-ajax=add_to_cart", "product_sku=" .. (chance(0.5) and ("SKU-" .. rand_int(1000, 99999)) or "") ..
      "&product_id=" .. rand_int(10, 9000) .. "&quantity=" .. rand_int(1, 6)
  end
  return "/wp-admin/admin-ajax.php", "action=load_more_posts&page=" .. rand_int(2, 40) .. "&category=" ..
    pick(CATEGORIES) .. "&nonce=" .. rand_hex(10) .. "&posts_per_page=" .. pick({ 6, 9, 12 })
end

function request()
  request_counter = request_counter + 1
  local post = SITE .. post_path()
  local opts = { logged_in = chance(0.08), shopper = chance(0.2) }
  local h, path, body = {}, nil, nil
  local is_comment = rng() % 10 < 7
  if is_comment then path, body = comment_post(h, opts) else path, body = ajax_post(h, opts) end
  local full = visitor_headers(is_comment and "form" or "ajax", post, opts)
  for k, v in pairs(h) do full[k] = v end
  full["Content-Type"] = is_comment and "application/x-www-form-urlencoded" or "application/x-www-form-urlencoded; charset=UTF-8"
  return wrk.format("POST", path, full, body)
end
