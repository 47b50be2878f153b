-- The shape of the WordPress + WooCommerce site the varied mixes visit: its vocabulary (a gardening and kitchen blog
-- with a shop), and the paths of its posts, archives and products. Needs varied-random.lua before it.
-- The words are plain English with no SQL, shell or script keywords in them (no "select", "cat", "script", ...):
-- the mixes are benign traffic, and a CRS match must come from a request's shape, not from an unlucky word.
local WORDS = { "garden", "tomato", "seedling", "compost", "mulch", "raised", "bed", "spring", "summer", "autumn",
  "winter", "herb", "basil", "mint", "lavender", "rose", "orchard", "apple", "pear", "plum", "cherry", "berry",
  "harvest", "soil", "watering", "pruning", "hedge", "lawn", "meadow", "pond", "bird", "feeder", "bee", "butterfly",
  "balcony", "container", "pot", "indoor", "plant", "care", "guide", "tips", "beginner", "easy", "quick", "best",
  "simple", "weekend", "project", "recipe", "soup", "salad", "bread", "sourdough", "jam", "pickle", "preserve",
  "kitchen", "cabin", "hiking", "trail", "lake", "coast", "village", "market", "bike", "camera", "review", "budget",
  "family", "kids", "dog", "tools", "shed", "fence", "path", "stone", "wood", "bench", "lamp", "solar", "rain",
  "barrel", "greenhouse", "frost", "shade", "sun", "flower", "bulb", "tulip", "daffodil", "dahlia", "peony", "fern",
  "moss", "ivy", "clematis", "potato", "onion", "garlic", "carrot", "bean", "pea", "squash", "pumpkin", "zucchini",
  "pepper", "chili", "cucumber", "lettuce", "spinach", "kale", "radish", "beetroot", "strawberry", "blueberry",
  "raspberry", "rhubarb", "cake", "pie", "tart", "honey", "cheese", "picnic", "camping", "sunflower", "wildflower" }
local CATEGORIES = { "gardening", "vegetables", "flowers", "recipes", "baking", "travel", "diy", "reviews", "news",
  "seasonal", "preserving", "wildlife" }
local PRODUCT_CATEGORIES = { "seeds", "bulbs", "tools", "pots-planters", "books", "gift-cards", "kitchen", "outdoor" }

local function post_path()
  return string.format("/%d/%02d/%s/", rand_int(2016, 2024), rand_int(1, 12), slug(WORDS, 3, 6))
end
local function product_path() return "/product/" .. slug(WORDS, 2, 4) .. "/" end
local function search_words(lo, hi)
  local w = {}
  for i = 1, rand_int(lo, hi) do w[i] = pick(WORDS) end
  return table.concat(w, " ")
end
local function upload_path(ext)
  return string.format("/wp-content/uploads/%d/%02d/%s-%dx%d.%s", rand_int(2016, 2024), rand_int(1, 12),
    slug(WORDS, 2, 4), pick({ 150, 300, 768, 1024, 1536 }), pick({ 150, 200, 512, 683, 1024 }), ext)
end
