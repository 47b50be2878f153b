<?php
// What wp-config.php and wp-includes/default-constants.php give every plugin: the paths, the
// secret keys the API client encrypts the stored key with, the time units, the WordPress version.
define( 'ABSPATH', sys_get_temp_dir() . '/wafctl-wp-shim/' );
define( 'WPINC', 'wp-includes' );
// Fixed test secrets: the plugin derives its AES key and IV from these (they must stay the same
// across the driver's processes, as they do across a real site's requests).
define( 'AUTH_KEY', 'wafctl-shim-auth-key-0123456789abcdef' );
define( 'SECURE_AUTH_KEY', 'wafctl-shim-secure-auth-key-0123456789' );
define( 'NONCE_KEY', 'wafctl-shim-nonce-key-0123456789abcdef' );
define( 'MINUTE_IN_SECONDS', 60 );
define( 'HOUR_IN_SECONDS', 60 * MINUTE_IN_SECONDS );
define( 'DAY_IN_SECONDS', 24 * HOUR_IN_SECONDS );
define( 'WEEK_IN_SECONDS', 7 * DAY_IN_SECONDS );
define( 'WP_DEBUG', true );

// The WordPress release the shim reports (get_bloginfo('version'), $wp_version); the vulnerability
// scanner sends it as wordpress_version.
$GLOBALS['wp_version'] = getenv( 'WAFCTL_WP_VERSION' ) ?: '6.4.2';
