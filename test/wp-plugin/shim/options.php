<?php
// The wp_options table as a JSON file (WAFCTL_WP_DB): each driver process is one WordPress request,
// and what one request stores (the encrypted key, the site data, cached answers) the next one reads,
// as a real site's database does. Transients live in options named _transient_X and
// _transient_timeout_X, as WordPress stores them without an object cache.

function wafctl_shim_db_path() {
	$path = getenv( 'WAFCTL_WP_DB' );
	if ( ! $path ) {
		throw new RuntimeException( 'WAFCTL_WP_DB (the options file) is not set' );
	}
	return $path;
}

function &wafctl_shim_options() {
	static $options = null;
	if ( null === $options ) {
		$path    = wafctl_shim_db_path();
		$options = file_exists( $path ) ? unserialize( file_get_contents( $path ) ) : array();
	}
	return $options;
}

/** Writes the table back; PHP's serialize keeps types (true, arrays, ints) as maybe_serialize does. */
function wafctl_shim_save_options() {
	file_put_contents( wafctl_shim_db_path(), serialize( wafctl_shim_options() ) );
}

function get_option( $name, $default = false ) {
	$options = &wafctl_shim_options();
	return array_key_exists( $name, $options ) ? $options[ $name ] : $default;
}

function update_option( $name, $value, $autoload = null ) {
	$options = &wafctl_shim_options();
	if ( array_key_exists( $name, $options ) && $options[ $name ] === $value ) {
		return false;
	}
	$options[ $name ] = $value;
	wafctl_shim_save_options();
	return true;
}

function add_option( $name, $value = '', $deprecated = '', $autoload = 'yes' ) {
	$options = &wafctl_shim_options();
	if ( array_key_exists( $name, $options ) ) {
		return false;
	}
	return update_option( $name, $value );
}

function delete_option( $name ) {
	$options = &wafctl_shim_options();
	if ( ! array_key_exists( $name, $options ) ) {
		return false;
	}
	unset( $options[ $name ] );
	wafctl_shim_save_options();
	return true;
}

function set_transient( $name, $value, $expiration = 0 ) {
	update_option( '_transient_timeout_' . $name, $expiration ? time() + (int) $expiration : 0 );
	update_option( '_transient_' . $name, $value );
	return true;
}

function get_transient( $name ) {
	$timeout = get_option( '_transient_timeout_' . $name, 0 );
	if ( $timeout && $timeout < time() ) {
		delete_transient( $name );
		return false;
	}
	return get_option( '_transient_' . $name, false );
}

function delete_transient( $name ) {
	delete_option( '_transient_timeout_' . $name );
	return delete_option( '_transient_' . $name );
}

/**
 * The part of $wpdb the plugin uses: prepare() and a DELETE ... WHERE option_name LIKE query on the
 * options table (the API client's clear_cache). Anything else is refused loudly, so a plugin call
 * this shim does not model shows up as an error rather than passing silently.
 */
class Wafctl_Shim_Wpdb {
	public $prefix  = 'wp_';
	public $options = 'wp_options';

	public function prepare( $query, ...$args ) {
		if ( 1 === count( $args ) && is_array( $args[0] ) ) {
			$args = $args[0];
		}
		$quoted = array_map(
			function ( $arg ) {
				return "'" . addslashes( (string) $arg ) . "'";
			},
			$args
		);
		return vsprintf( $query, $quoted );
	}

	public function query( $sql ) {
		$pattern = '/^DELETE FROM ' . preg_quote( $this->options, '/' ) . " WHERE option_name LIKE '((?:[^'\\\\]|\\\\.)*)'((?: OR option_name LIKE '(?:[^'\\\\]|\\\\.)*')*)$/";
		if ( ! preg_match( $pattern, trim( $sql ), $m ) ) {
			throw new RuntimeException( "wpdb shim: unsupported query: {$sql}" );
		}
		preg_match_all( "/LIKE '((?:[^'\\\\]|\\\\.)*)'/", $sql, $likes );
		$options = &wafctl_shim_options();
		$deleted = 0;
		foreach ( array_keys( $options ) as $name ) {
			foreach ( $likes[1] as $like ) {
				if ( wafctl_shim_sql_like( stripslashes( $like ), $name ) ) {
					unset( $options[ $name ] );
					++$deleted;
					break;
				}
			}
		}
		wafctl_shim_save_options();
		return $deleted;
	}
}

/** SQL LIKE as MySQL matches it: % any run, _ one character (the plugin's patterns use both). */
function wafctl_shim_sql_like( $like, $subject ) {
	$regex = '';
	foreach ( str_split( $like ) as $char ) {
		$regex .= '%' === $char ? '.*' : ( '_' === $char ? '.' : preg_quote( $char, '/' ) );
	}
	return 1 === preg_match( '/^' . $regex . '$/s', $subject );
}

$GLOBALS['wpdb'] = new Wafctl_Shim_Wpdb();
