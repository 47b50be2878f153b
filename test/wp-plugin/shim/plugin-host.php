<?php
// What the plugin's main class (includes/class-atomicedge.php, not loaded: no stored copy matches
// 1.2.0) gives the classes the driver loads: AtomicEdge::log() and AtomicEdge::get_instance() with
// the components the AJAX handlers reach through it.

class AtomicEdge {
	private static $instance = null;

	public $api;
	public $vulnerability_scanner;
	// The malware scanner is not loaded (it makes no call to the API); a handler reaching for it
	// fails loudly on null.
	public $scanner = null;

	public static function get_instance() {
		if ( null === self::$instance ) {
			throw new RuntimeException( 'the driver has not wired AtomicEdge::get_instance() yet' );
		}
		return self::$instance;
	}

	public static function wire( AtomicEdge_API $api, AtomicEdge_Vulnerability_Scanner $vulnerability_scanner ) {
		self::$instance                        = new self();
		self::$instance->api                   = $api;
		self::$instance->vulnerability_scanner = $vulnerability_scanner;
		return self::$instance;
	}

	/** Kept for the driver to report with each step, and echoed to stderr for a failing run. */
	public static function log( $message, $data = null ) {
		$line                            = $message . ( null === $data ? '' : ' ' . wp_json_encode( $data ) );
		$GLOBALS['wafctl_plugin_log'][] = $line;
		fwrite( STDERR, '[atomicedge] ' . $line . "\n" );
	}
}
