/** users/new: the tabbed staff-user form (./UserForm.tsx); the server mails an invitation. */
export { UserCreate as default } from './UserForm.tsx';
