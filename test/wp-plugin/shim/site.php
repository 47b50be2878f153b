<?php
// The WordPress install the plugin runs in: its address, version and clock, and what the
// vulnerability scanner reads of it (installed plugins and themes). The lists come from
// WAFCTL_WP_PLUGINS / WAFCTL_WP_THEMES (JSON: [{"slug","version","name"}]), so a test chooses
// what the site has installed.

function home_url( $path = '', $scheme = null ) {
	$home = getenv( 'WAFCTL_WP_HOME' ) ?: 'https://blog.example.test';
	return rtrim( $home, '/' ) . ( $path ? '/' . ltrim( $path, '/' ) : '' );
}

function site_url( $path = '', $scheme = null ) {
	return home_url( $path, $scheme );
}

function admin_url( $path = '' ) {
	return site_url( 'wp-admin/' . ltrim( $path, '/' ) );
}

function get_bloginfo( $show = '' ) {
	switch ( $show ) {
		case 'version':
			return $GLOBALS['wp_version'];
		case 'url':
		case 'wpurl':
			return home_url();
		case 'name':
			return 'wafctl shim blog';
		default:
			return '';
	}
}

/** current_time( 'mysql' | 'timestamp' | format ), in UTC (the shim's timezone option). */
function current_time( $type, $gmt = 0 ) {
	if ( 'mysql' === $type ) {
		return gmdate( 'Y-m-d H:i:s' );
	}
	if ( 'timestamp' === $type || 'U' === $type ) {
		return time();
	}
	return gmdate( $type );
}

function wp_generate_uuid4() {
	$bytes    = random_bytes( 16 );
	$bytes[6] = chr( ord( $bytes[6] ) & 0x0f | 0x40 );
	$bytes[8] = chr( ord( $bytes[8] ) & 0x3f | 0x80 );
	return vsprintf( '%s%s-%s-%s-%s-%s%s%s', str_split( bin2hex( $bytes ), 4 ) );
}

function wafctl_shim_installed( $variable ) {
	$json = getenv( $variable );
	$list = $json ? json_decode( $json, true ) : array();
	if ( ! is_array( $list ) ) {
		throw new RuntimeException( "{$variable} is not a JSON list" );
	}
	return $list;
}

/** get_plugins(): plugin file => header data, as wp-admin/includes/plugin.php returns it. */
function get_plugins( $folder = '' ) {
	$plugins = array();
	foreach ( wafctl_shim_installed( 'WAFCTL_WP_PLUGINS' ) as $plugin ) {
		$plugins[ $plugin['slug'] . '/' . $plugin['slug'] . '.php' ] = array(
			'Name'    => $plugin['name'],
			'Version' => $plugin['version'],
		);
	}
	return $plugins;
}

/** The part of WP_Theme the scanner reads: get( 'Version' ), get( 'Name' ). */
class Wafctl_Shim_Theme {
	private $headers;

	public function __construct( $headers ) {
		$this->headers = $headers;
	}

	public function get( $header ) {
		return isset( $this->headers[ $header ] ) ? $this->headers[ $header ] : false;
	}
}

function wp_get_themes( $args = array() ) {
	$themes = array();
	foreach ( wafctl_shim_installed( 'WAFCTL_WP_THEMES' ) as $theme ) {
		$themes[ $theme['slug'] ] = new Wafctl_Shim_Theme(
			array(
				'Name'    => $theme['name'],
				'Version' => $theme['version'],
			)
		);
	}
	return $themes;
}

function get_stylesheet() {
	$themes = wafctl_shim_installed( 'WAFCTL_WP_THEMES' );
	return $themes ? $themes[0]['slug'] : '';
}
