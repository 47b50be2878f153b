<?php
// An administrator's admin-ajax.php request: the nonce and capability checks pass (the driver is
// the logged-in admin), and wp_send_json_* ends the request as wp_die() does, here by throwing the
// JSON the page's JavaScript would receive so the driver can report it.

class Wafctl_Shim_Ajax_Response extends Exception {
	public $payload;

	public function __construct( $payload ) {
		parent::__construct( 'wp_send_json' );
		// Through JSON and back: exactly what the admin page's JavaScript gets.
		$this->payload = json_decode( wp_json_encode( $payload ), true );
	}
}

function wp_send_json( $response, $status_code = null ) {
	throw new Wafctl_Shim_Ajax_Response( $response );
}

function wp_send_json_success( $data = null, $status_code = null ) {
	$response = array( 'success' => true );
	if ( isset( $data ) ) {
		$response['data'] = $data;
	}
	wp_send_json( $response );
}

function wp_send_json_error( $data = null, $status_code = null ) {
	$response = array( 'success' => false );
	if ( isset( $data ) ) {
		$response['data'] = $data;
	}
	wp_send_json( $response );
}

function wp_die( $message = '', $title = '', $args = array() ) {
	throw new RuntimeException( 'wp_die: ' . ( is_string( $message ) ? $message : wp_json_encode( $message ) ) );
}

function check_ajax_referer( $action = -1, $query_arg = false, $stop = true ) {
	return 1;
}

function wp_verify_nonce( $nonce, $action = -1 ) {
	return 1;
}

function wp_create_nonce( $action = -1 ) {
	return 'wafctlshim';
}

function current_user_can( $capability, ...$args ) {
	return true;
}
