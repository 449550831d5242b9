"""Runs one piece of a private OpenStack Swift from a folder of its own.

Swift's servers read /etc/swift unless set_swift_dir() is called before they load their
storage policies, and Debian ships no swift-init here: this launcher is the one place that
knows both. Run with the system Python (/usr/bin/python3), which has the swift modules.

  launchSwift.py rings SWIFT_DIR ACCOUNT_PORT CONTAINER_PORT OBJECT_PORT
      builds the three rings (part power 10, one replica, one device d1 on 127.0.0.1)
  launchSwift.py serve SWIFT_DIR SERVER CONF
      runs SERVER (account-server, container-server, object-server, proxy-server) in the
      foreground, logging to stderr (access lines included)
  launchSwift.py memcached PORT
      runs memcached on 127.0.0.1:PORT (TCP only)

Servers and memcached die with the process that started them (PR_SET_PDEATHSIG): a test run
killed without cleaning up leaves nothing listening on a shared machine.
"""
import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def die_with_parent():
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    # The parent may have died before prctl took effect: then we were re-parented already.
    expected = os.environ.get('HINDSIGHT_SWIFT_PARENT')
    if expected and int(expected) != os.getppid():
        os._exit(1)


def build_rings(swift_dir, ports):
    from swift.common.ring import RingBuilder
    for name, port in zip(('account', 'container', 'object'), ports):
        builder = RingBuilder(10, 1, 1)
        builder.add_dev({'id': 0, 'region': 1, 'zone': 1, 'ip': '127.0.0.1', 'port': int(port),
                         'device': 'd1', 'weight': 1.0, 'meta': ''})
        builder.rebalance(seed=1)
        builder.save(os.path.join(swift_dir, name + '.builder'))
        builder.get_ring().save(os.path.join(swift_dir, name + '.ring.gz'))


def serve(swift_dir, server, conf):
    from swift.common.utils import set_swift_dir
    set_swift_dir(swift_dir)
    from swift.common.storage_policy import reload_storage_policies
    reload_storage_policies()
    from swift.common.wsgi import run_wsgi
    options = {'verbose': True}
    if server == 'object-server':
        from swift.obj import server as object_server
        options['global_conf_callback'] = object_server.global_conf_callback
    return run_wsgi(conf, server, **options)


def memcached(port):
    # The death signal survives exec, so memcached itself dies with our parent.
    args = ['memcached', '-l', '127.0.0.1', '-p', port, '-U', '0', '-m', '64']
    if os.getuid() == 0:
        args += ['-u', 'root']  # memcached refuses to run as root unless told to
    os.execv('/usr/bin/memcached', args)


def main(argv):
    die_with_parent()
    if len(argv) == 3 and argv[1] == 'memcached':
        return memcached(argv[2])
    if len(argv) == 6 and argv[1] == 'rings':
        build_rings(argv[2], argv[3:6])
        return 0
    if len(argv) == 5 and argv[1] == 'serve':
        return serve(argv[2], argv[3], argv[4])
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
