-- HTML pages of 20-200 KB from the response-pages origin (response-anchor.sh): five sizes, each as
-- identity and gzip, requested in turn per connection, with a browser's Accept and the edge's site host.
local pages = { "/p20.html", "/p50.html.gz", "/p100.html", "/p150.html.gz", "/p200.html",
                "/p20.html.gz", "/p50.html", "/p100.html.gz", "/p150.html", "/p200.html.gz" }
local n = 0
request = function()
  n = n + 1
  return wrk.format("GET", pages[(n % #pages) + 1], {
    ["Host"] = "www.example.com",
    ["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
    ["Accept"] = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    ["Accept-Encoding"] = "gzip, deflate, br",
  })
end
