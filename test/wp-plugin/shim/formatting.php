<?php
// The escaping, sanitizing and translation functions the plugin calls, as wp-includes/formatting.php
// and l10n.php define them (for ASCII and UTF-8 text; the plugin passes nothing else).

function __( $text, $domain = 'default' ) {
	return $text;
}

function esc_html__( $text, $domain = 'default' ) {
	return esc_html( $text );
}

function esc_attr__( $text, $domain = 'default' ) {
	return esc_attr( $text );
}

function _e( $text, $domain = 'default' ) {
	echo $text;
}

function esc_html_e( $text, $domain = 'default' ) {
	echo esc_html( $text );
}

function esc_attr_e( $text, $domain = 'default' ) {
	echo esc_attr( $text );
}

function _n( $single, $plural, $number, $domain = 'default' ) {
	return 1 === (int) $number ? $single : $plural;
}

/** esc_html and esc_attr: &, <, >, " and ' as entities, an entity already there left alone. */
function esc_html( $text ) {
	return htmlspecialchars( (string) $text, ENT_QUOTES | ENT_SUBSTITUTE, 'UTF-8', false );
}

function esc_attr( $text ) {
	return esc_html( $text );
}

function esc_url_raw( $url ) {
	$url = trim( (string) $url );
	return preg_match( '#^(https?|ftp|mailto):#i', $url ) || '' === $url || '/' === $url[0] ? $url : 'http://' . $url;
}

function esc_url( $url ) {
	return str_replace( '&', '&#038;', esc_url_raw( $url ) );
}

function wp_kses( $text, $allowed ) {
	return $text;
}

function wp_unslash( $value ) {
	return is_array( $value ) ? array_map( 'wp_unslash', $value ) : stripslashes( (string) $value );
}

function wp_slash( $value ) {
	return is_array( $value ) ? array_map( 'wp_slash', $value ) : addslashes( (string) $value );
}

/** sanitize_key: lowercase, then only a-z, 0-9, _ and - kept. */
function sanitize_key( $key ) {
	return preg_replace( '/[^a-z0-9_\-]/', '', strtolower( (string) $key ) );
}

/**
 * sanitize_text_field: invalid UTF-8 dropped, a lone < made &lt;, tags stripped, line breaks,
 * tabs and extra whitespace collapsed, %XX octets removed, trimmed (_sanitize_text_fields).
 */
function sanitize_text_field( $str ) {
	if ( is_object( $str ) || is_array( $str ) ) {
		return '';
	}
	$filtered = (string) $str;
	if ( '' !== $filtered && 1 !== preg_match( '/^./su', $filtered ) ) { // wp_check_invalid_utf8, without mbstring
		return '';
	}
	if ( false !== strpos( $filtered, '<' ) ) {
		$filtered = preg_replace_callback( '%<[^>]*?((?=<)|>|$)%', 'wafctl_shim_lone_lt', $filtered );
		$filtered = wp_strip_all_tags( $filtered, false );
		$filtered = str_replace( "<\n", "&lt;\n", $filtered );
	}
	$filtered = preg_replace( '/[\r\n\t ]+/', ' ', $filtered );
	$filtered = trim( $filtered );
	$found    = false;
	while ( preg_match( '/%[a-f0-9]{2}/i', $filtered, $match ) ) {
		$filtered = str_replace( $match[0], '', $filtered );
		$found    = true;
	}
	if ( $found ) {
		$filtered = trim( preg_replace( '/ +/', ' ', $filtered ) );
	}
	return $filtered;
}

/** wp_pre_kses_less_than_callback: a < that opens no tag becomes &lt;. */
function wafctl_shim_lone_lt( $matches ) {
	return false === strpos( $matches[0], '>' ) ? esc_html( $matches[0] ) : $matches[0];
}

function wp_strip_all_tags( $text, $remove_breaks = false ) {
	$text = preg_replace( '@<(script|style)[^>]*?>.*?</\\1>@si', '', (string) $text );
	$text = strip_tags( $text );
	if ( $remove_breaks ) {
		$text = preg_replace( '/[\r\n\t ]+/', ' ', $text );
	}
	return trim( $text );
}

function absint( $value ) {
	return abs( (int) $value );
}

function wp_parse_args( $args, $defaults = array() ) {
	if ( is_object( $args ) ) {
		$parsed = get_object_vars( $args );
	} elseif ( is_array( $args ) ) {
		$parsed = &$args;
	} else {
		parse_str( (string) $args, $parsed );
	}
	return array_merge( $defaults, $parsed );
}

function wp_json_encode( $data, $options = 0, $depth = 512 ) {
	return json_encode( $data, $options, $depth );
}
