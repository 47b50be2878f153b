<?php
// WordPress's HTTP API (wp-includes/http.php, class-wp-http.php) over PHP's curl: the args the
// plugin passes (method, timeout, headers, body), a body array form-encoded, the http_request_args
// filter (where a site trusts wafctl's CA, docs/wordpress-plugin.md section 3), TLS verified
// always, and the answer as the array wp_remote_retrieve_* read.

class WP_Error {
	public $errors     = array();
	public $error_data = array();

	public function __construct( $code = '', $message = '', $data = '' ) {
		if ( '' !== $code ) {
			$this->errors[ $code ][] = $message;
			if ( '' !== $data ) {
				$this->error_data[ $code ] = $data;
			}
		}
	}

	public function get_error_code() {
		$codes = array_keys( $this->errors );
		return $codes ? $codes[0] : '';
	}

	public function get_error_message( $code = '' ) {
		$code = $code ? $code : $this->get_error_code();
		return isset( $this->errors[ $code ][0] ) ? $this->errors[ $code ][0] : '';
	}
}

function is_wp_error( $thing ) {
	return $thing instanceof WP_Error;
}

/**
 * add_query_arg( array, url ) as WordPress does it: merged into the URL's query, values NOT
 * URL-encoded (WordPress leaves that to the caller), a false value removes the key, the fragment kept.
 */
function add_query_arg( ...$args ) {
	if ( is_array( $args[0] ) ) {
		$new = $args[0];
		$uri = isset( $args[1] ) ? $args[1] : $_SERVER['REQUEST_URI'];
	} else {
		$new = array( $args[0] => $args[1] );
		$uri = isset( $args[2] ) ? $args[2] : $_SERVER['REQUEST_URI'];
	}
	$fragment = '';
	if ( false !== ( $hash = strpos( $uri, '#' ) ) ) {
		$fragment = substr( $uri, $hash );
		$uri      = substr( $uri, 0, $hash );
	}
	$base  = $uri;
	$query = '';
	if ( false !== ( $mark = strpos( $uri, '?' ) ) ) {
		$base  = substr( $uri, 0, $mark + 1 );
		$query = substr( $uri, $mark + 1 );
	} else {
		$base = $uri . '?';
	}
	$current = array();
	parse_str( $query, $current );
	foreach ( $new as $key => $value ) {
		$current[ $key ] = $value;
	}
	$pairs = array();
	foreach ( $current as $key => $value ) {
		if ( false === $value || null === $value ) {
			continue;
		}
		$pairs[] = $key . '=' . $value;
	}
	return rtrim( $base . implode( '&', $pairs ), '?' ) . $fragment;
}

/**
 * What the Requests library (under WP_Http) does to a URL before sending it: characters a URL
 * cannot hold (space, quotes, <, >, non-ASCII...) are percent-encoded; reserved ones (& = + # / ?)
 * and existing %XX escapes pass as they are. This is why the plugin's unencoded search text loses a
 * `&` or `#` but keeps spaces.
 */
function wafctl_shim_normalize_url( $url ) {
	return preg_replace_callback(
		'/[^A-Za-z0-9\-._~:\/?#\[\]@!$&\'()*+,;=%]/',
		function ( $m ) {
			return rawurlencode( $m[0] );
		},
		$url
	);
}

function wp_remote_request( $url, $args = array() ) {
	$defaults = array(
		'method'          => 'GET',
		'timeout'         => 5,
		'headers'         => array(),
		'body'            => null,
		'sslverify'       => true,
		'sslcertificates' => ABSPATH . WPINC . '/certificates/ca-bundle.crt',
		'user-agent'      => 'WordPress/' . $GLOBALS['wp_version'] . '; ' . home_url( '/' ),
	);
	$args     = array_merge( $defaults, $args );
	$args     = apply_filters( 'http_request_args', $args, $url );

	$headers = array();
	foreach ( $args['headers'] as $name => $value ) {
		$headers[] = $name . ': ' . $value;
	}
	$body = $args['body'];
	if ( is_array( $body ) ) {
		$body = http_build_query( $body, '', '&' );
		if ( ! isset( $args['headers']['Content-Type'] ) ) {
			$headers[] = 'Content-Type: application/x-www-form-urlencoded; charset=UTF-8';
		}
	}

	$curl = curl_init( wafctl_shim_normalize_url( $url ) );
	curl_setopt_array(
		$curl,
		array(
			CURLOPT_CUSTOMREQUEST  => strtoupper( $args['method'] ),
			CURLOPT_RETURNTRANSFER => true,
			CURLOPT_HEADER         => true,
			CURLOPT_TIMEOUT        => (int) ceil( $args['timeout'] ),
			CURLOPT_HTTPHEADER     => $headers,
			CURLOPT_USERAGENT      => $args['user-agent'],
			CURLOPT_SSL_VERIFYPEER => (bool) $args['sslverify'],
			CURLOPT_SSL_VERIFYHOST => $args['sslverify'] ? 2 : 0,
			CURLOPT_CAINFO         => $args['sslcertificates'],
		)
	);
	if ( null !== $body && '' !== $body ) {
		curl_setopt( $curl, CURLOPT_POSTFIELDS, $body );
	}
	$raw = curl_exec( $curl );
	if ( false === $raw ) {
		$error = new WP_Error( 'http_request_failed', 'cURL error ' . curl_errno( $curl ) . ': ' . curl_error( $curl ) );
		curl_close( $curl );
		return $error;
	}
	$code        = curl_getinfo( $curl, CURLINFO_RESPONSE_CODE );
	$header_size = curl_getinfo( $curl, CURLINFO_HEADER_SIZE );
	curl_close( $curl );

	$response_headers = array();
	foreach ( explode( "\r\n", substr( $raw, 0, $header_size ) ) as $line ) {
		if ( false !== strpos( $line, ':' ) ) {
			list( $name, $value )                             = explode( ':', $line, 2 );
			$response_headers[ strtolower( trim( $name ) ) ] = trim( $value );
		}
	}
	return array(
		'headers'  => $response_headers,
		'body'     => substr( $raw, $header_size ),
		'response' => array(
			'code'    => $code,
			'message' => '',
		),
		'cookies'  => array(),
	);
}

function wp_remote_get( $url, $args = array() ) {
	return wp_remote_request( $url, array_merge( $args, array( 'method' => 'GET' ) ) );
}

function wp_remote_post( $url, $args = array() ) {
	return wp_remote_request( $url, array_merge( $args, array( 'method' => 'POST' ) ) );
}

function wp_remote_retrieve_body( $response ) {
	return ( is_wp_error( $response ) || ! isset( $response['body'] ) ) ? '' : $response['body'];
}

function wp_remote_retrieve_response_code( $response ) {
	return ( is_wp_error( $response ) || ! isset( $response['response']['code'] ) ) ? '' : $response['response']['code'];
}

function wp_remote_retrieve_header( $response, $header ) {
	$header = strtolower( $header );
	return isset( $response['headers'][ $header ] ) ? $response['headers'][ $header ] : '';
}
