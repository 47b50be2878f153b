<?php
/**
 * Runs the Atomic Edge WordPress plugin's own classes, unmodified, against a wafctl daemon: one
 * WordPress admin request per step, read as a JSON list on stdin, one JSON line per step on stdout.
 *
 *   {"name": "...", "form": "connect", "key": "..."}          the connect form of the admin pages
 *   {"name": "...", "ajax": "atomicedge_get_waf_logs", "post": {...}}   an admin-ajax.php call
 *   {"name": "...", "cron": "atomicedge_sync_settings"}      a WP-Cron event
 *
 * Each line: {name, ok, result, log, error}. ok is what the page would show as success (the AJAX
 * handler's wp_send_json_success, a success notice, a completed sync); result is what the plugin
 * handed to the page; log the plugin's AtomicEdge::log lines; error a PHP warning, notice or
 * exception the plugin raised (any of which makes ok false: it means the plugin tripped on an answer).
 *
 * Environment: WAFCTL_WP_PLUGIN_DIR (the plugin's checkout), WAFCTL_WP_API_URL (…/api/v1),
 * WAFCTL_WP_CA_FILE (the daemon's CA), WAFCTL_WP_DB (the options file, kept between runs);
 * WAFCTL_WP_PLUGINS / WAFCTL_WP_THEMES / WAFCTL_WP_VERSION / WAFCTL_WP_HOME describe the site.
 */

require __DIR__ . '/shim/load.php';

// The plugin's classes the admin pages, cron and scanner use; not class-atomicedge.php (the shim's
// plugin-host.php stands in for it) nor the malware scanner (it makes no API call).
const WAFCTL_PLUGIN_FILES = array(
	'includes/class-atomicedge-api.php',
	'includes/class-atomicedge-admin.php',
	'includes/class-atomicedge-ajax.php',
	'includes/class-atomicedge-vulnerability-scanner.php',
	'includes/class-atomicedge-cron.php',
);

function wafctl_env( $name ) {
	$value = getenv( $name );
	if ( false === $value || '' === $value ) {
		fwrite( STDERR, "driver.php: {$name} is not set\n" );
		exit( 2 );
	}
	return $value;
}

$plugin_dir = rtrim( wafctl_env( 'WAFCTL_WP_PLUGIN_DIR' ), '/' );
$api_url    = wafctl_env( 'WAFCTL_WP_API_URL' );
$ca_file    = wafctl_env( 'WAFCTL_WP_CA_FILE' );
foreach ( WAFCTL_PLUGIN_FILES as $file ) {
	if ( ! is_file( "{$plugin_dir}/{$file}" ) ) {
		fwrite( STDERR, "driver.php: {$plugin_dir}/{$file} is missing (scripts/fetch-wp-plugin.sh fetches the plugin)\n" );
		exit( 2 );
	}
	require_once "{$plugin_dir}/{$file}";
}

// Any warning or notice is a failure: a plugin reading a field our answer lacks raises one.
set_error_handler(
	function ( $severity, $message, $file, $line ) {
		throw new ErrorException( $message, 0, $severity, $file, $line );
	}
);

// docs/wordpress-plugin.md: the API address in atomicedge_api_url, wafctl's CA through the
// http_request_args filter (the must-use plugin the docs show), for requests to wafctl only.
update_option( 'atomicedge_api_url', $api_url );
add_filter(
	'http_request_args',
	function ( $args, $url ) use ( $api_url, $ca_file ) {
		if ( 0 === strpos( $url, $api_url ) ) {
			$args['sslcertificates'] = $ca_file;
		}
		return $args;
	},
	10,
	2
);

$api = new AtomicEdge_API();
new AtomicEdge_Admin( $api );
new AtomicEdge_Ajax( $api );
AtomicEdge::wire( $api, new AtomicEdge_Vulnerability_Scanner( $api ) );
// The cron class's constructor also wants the malware scanner, which only the daily scan uses; it
// is built without it and its own init_hooks() registers the hourly sync as the constructor would.
$cron  = ( new ReflectionClass( 'AtomicEdge_Cron' ) )->newInstanceWithoutConstructor();
$field = new ReflectionProperty( 'AtomicEdge_Cron', 'api' );
$field->setAccessible( true );
$field->setValue( $cron, $api );
$hooks = new ReflectionMethod( 'AtomicEdge_Cron', 'init_hooks' );
$hooks->setAccessible( true );
$hooks->invoke( $cron );

/** Runs one step; returns [ok, result]. */
function wafctl_run_step( array $step ) {
	if ( isset( $step['form'] ) && 'connect' === $step['form'] ) {
		// The dashboard's connect form posted to the admin: admin_init handles it and leaves notices.
		$_POST = wp_slash( array( 'atomicedge_connect' => '1', '_wpnonce' => wp_create_nonce( 'atomicedge_connect' ), 'atomicedge_api_key' => $step['key'] ) );
		delete_transient( 'atomicedge_admin_notices' );
		do_action( 'admin_init' );
		$notices = get_transient( 'atomicedge_admin_notices' );
		$notices = is_array( $notices ) ? $notices : array();
		$result  = array(
			'notices'   => $notices,
			'connected' => (bool) get_option( 'atomicedge_connected', false ),
			'site_data' => get_option( 'atomicedge_site_data', null ),
		);
		return array( 1 === count( $notices ) && 'success' === $notices[0]['type'] && $result['connected'], $result );
	}
	if ( isset( $step['ajax'] ) ) {
		$_POST    = wp_slash( isset( $step['post'] ) ? $step['post'] : array() );
		$_REQUEST = $_POST;
		try {
			do_action( 'wp_ajax_' . $step['ajax'] );
		} catch ( Wafctl_Shim_Ajax_Response $sent ) {
			return array( true === $sent->payload['success'], $sent->payload );
		}
		throw new RuntimeException( "{$step['ajax']} sent no answer" );
	}
	if ( isset( $step['cron'] ) ) {
		// An hour on: the cached site info has expired, as it has when the hourly event runs.
		delete_transient( 'atomicedge_site_info' );
		$before = get_option( 'atomicedge_site_data', null );
		delete_option( 'atomicedge_site_data' );
		do_action( $step['cron'] );
		$after = get_option( 'atomicedge_site_data', null );
		if ( null === $after && null !== $before ) {
			update_option( 'atomicedge_site_data', $before ); // a failed sync keeps what the site had
		}
		return array( null !== $after, array( 'site_data' => $after ) );
	}
	throw new InvalidArgumentException( 'unknown step: ' . wp_json_encode( $step ) );
}

$steps = json_decode( stream_get_contents( STDIN ), true );
if ( ! is_array( $steps ) ) {
	fwrite( STDERR, "driver.php: stdin is not a JSON list of steps\n" );
	exit( 2 );
}
foreach ( $steps as $step ) {
	$line = array(
		'name'   => isset( $step['name'] ) ? $step['name'] : '',
		'ok'     => false,
		'result' => null,
		'log'    => array(),
		'error'  => null,
	);
	$GLOBALS['wafctl_plugin_log'] = array();
	try {
		list( $line['ok'], $line['result'] ) = wafctl_run_step( $step );
	} catch ( Throwable $e ) {
		$line['error'] = get_class( $e ) . ': ' . $e->getMessage() . ' at ' . basename( $e->getFile() ) . ':' . $e->getLine();
	}
	$line['log'] = $GLOBALS['wafctl_plugin_log'];
	echo wp_json_encode( $line, JSON_UNESCAPED_SLASHES ) . "\n";
}
