// Where the WordPress benign corpus is expected to differ, with the reason (wordpress-benign.test.ts).

/** Requests on which our edge (CRS alone) and nginx + ModSecurity v3 decide differently, by paranoia level: id -> why. None. */
export const KNOWN_DIFFERENCES: Record<1 | 2, Record<string, string>> = { 1: {}, 2: {} };

const ENUMERATION = {
  'wp-143': 'cms 200110: /?author=N by an anonymous visitor (user enumeration, refused on purpose)',
  'wp-144': 'cms 200111: /wp-json/wp/v2/users/N without a login (user enumeration, refused on purpose)',
};

const PL2_AWAY = (rules: string, what: string) => `PL2 only (${rules}): ${what}; not yet excluded by the cms group`;

/** Requests the edge still refuses with the cms group on, by paranoia level: id -> why. */
export const STILL_REFUSED_WITH_CMS: Record<1 | 2, Record<string, string>> = {
  1: ENUMERATION,
  2: {
    'wp-043': PL2_AWAY('931130', 'redirect_to=https://blog.example/wp-admin/ on wp-login.php (an off-domain-looking URL)'),
    'wp-058': PL2_AWAY('931130', 'oEmbed ?url= of the site itself'),
    'wp-086': PL2_AWAY('942440', 'global styles JSON (`--` in var(--wp--...))'),
    'wp-087': PL2_AWAY('942440', 'global styles JSON (`--` in var(--wp--...))'),
    'wp-088': PL2_AWAY('942430,942440', 'global styles custom CSS'),
    'wp-089': PL2_AWAY('942440', 'global styles JSON (`--` in var(--wp--...))'),
    'wp-097': PL2_AWAY('942200,942260,942300,942340,942370,942430', 'customize_changeset_data JSON'),
    'wp-098': PL2_AWAY('932200,942260,942340,942370,942430,942440', 'customize_changeset_data with Additional CSS'),
    'wp-099': PL2_AWAY('942200,942260,942330,942340,942370,942430', 'customize_changeset_data with menu items and widgets'),
    'wp-103': PL2_AWAY('932200,941320,942130,942200,942260,942300,942340,942370,942430,942440', 'elementor_ajax actions JSON (save_builder)'),
    'wp-104': PL2_AWAY('932200,941320,942130,942200,942260,942300,942340,942370,942430,942440', 'elementor_ajax actions JSON (autosave)'),
    'wp-105': PL2_AWAY('942200,942260,942340,942370,942430', 'elementor_ajax actions JSON (get_document_config)'),
    'wp-106': PL2_AWAY('942200,942260,942340,942370,942430', 'elementor_ajax actions JSON (render_widget)'),
    'wp-107': PL2_AWAY('942200,942260,942300,942340,942370,942430,942440', 'elementor_ajax actions JSON (kit save)'),
    'wp-108': PL2_AWAY('942200,942260,942340,942370,942430', 'elementor_ajax actions JSON (library)'),
    'wp-116': PL2_AWAY('920230,942430', 'update_order_review post_data (a whole urlencoded form in one field)'),
    'wp-117': PL2_AWAY('931130', 'wc_order_attribution_* URLs at checkout'),
    'wp-118': PL2_AWAY('942361', 'address "12 Union Street" / "Order Lane"'),
    'wp-122': PL2_AWAY('931130', 'Store API order attribution referrer URL'),
    'wp-133': PL2_AWAY('920121', 'media file name with an apostrophe (the PL2 twin of 920120)'),
    'wp-134': PL2_AWAY('920121', 'media file name with an apostrophe (the PL2 twin of 920120)'),
    'wp-136': PL2_AWAY('920121', 'media file name with an apostrophe (the PL2 twin of 920120)'),
    'wp-137': PL2_AWAY('920121', 'media file name with an apostrophe (the PL2 twin of 920120)'),
    ...ENUMERATION,
  },
};
